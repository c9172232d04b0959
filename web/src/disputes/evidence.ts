// A dispute's evidence as the dashboard shows and sends it: the members of
// Hyperswitch's SubmitEvidenceRequest (a file id for each EvidenceType, text
// for the others), when a dispute takes evidence, and the size cap on a file
// attached through GraphQL (graph/mutations.go's maxEvidenceBase64).
import { canRun, type Role } from "../lib/roles";

/** Hyperswitch's EvidenceType values, in its order: the members that name a file. */
export const evidenceFileTypes = [
  "cancellation_policy",
  "customer_communication",
  "customer_signature",
  "receipt",
  "refund_policy",
  "service_documentation",
  "shipping_documentation",
  "invoice_showing_distinct_transactions",
  "recurring_transaction_agreement",
  "uncategorized_file",
] as const;

export type EvidenceFileType = (typeof evidenceFileTypes)[number];

/** One evidence member as it stands: a file id of a file type, or text. */
export interface EvidenceEntry {
  member: string;
  value: string;
  file: boolean;
}

/**
 * The evidence members with a value, the file types first in EvidenceType
 * order, then the text members by name.
 */
export function evidenceEntries(evidence: Record<string, unknown> | null | undefined): EvidenceEntry[] {
  const entries = Object.entries(evidence ?? {})
    .filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== "")
    .map(([member, value]) => ({ member, value, file: (evidenceFileTypes as readonly string[]).includes(member) }));
  const rank = (e: EvidenceEntry) => (e.file ? (evidenceFileTypes as readonly string[]).indexOf(e.member) : evidenceFileTypes.length);
  return entries.sort((a, b) => rank(a) - rank(b) || a.member.localeCompare(b.member));
}

/** A member's name as a person reads it: "shipping_documentation" → "Shipping documentation". */
export function evidenceLabel(member: string): string {
  const words = member.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// payments/disputes_evidence.go's evidenceAllowed: an open or challenged
// dispute before arbitration.
const evidenceStatuses: readonly string[] = ["dispute_opened", "dispute_challenged"];
const evidenceStages: readonly string[] = ["pre_dispute", "dispute", "pre_arbitration"];

/** What a user with this role may do with a dispute's evidence in this status and stage. */
export function evidenceActions(role: Role, status: string, stage: string): { attach: boolean; submit: boolean } {
  const open = evidenceStatuses.includes(status) && evidenceStages.includes(stage);
  return {
    attach: open && canRun(role, "attachDisputeEvidence"),
    submit: open && canRun(role, "submitDisputeEvidence"),
  };
}

/** The most base64 attachDisputeEvidence takes: 700 KiB of file, as graph/mutations.go computes it. */
export const maxEvidenceBase64 = Math.floor((700 * 1024 * 4) / 3);

/** The length of a file of this many bytes in base64 (standard alphabet, padded). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Whether a file of this many bytes can be attached through the dashboard. */
export function fitsEvidenceCap(bytes: number): boolean {
  return base64Length(bytes) <= maxEvidenceBase64;
}

/** The bytes in base64 (standard alphabet), as contentBase64 wants them. */
export function toBase64(bytes: Uint8Array): string {
  // btoa takes a binary string; build it in chunks so a large file does not
  // overflow the argument list of String.fromCharCode.
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * The evidence submitDisputeEvidence sends: the attached files are already
 * on the dispute (the server merges what is given into what it has), so only
 * the uncategorized text, when it differs from what the dispute holds.
 */
export function evidenceToSubmit(text: string, current: Record<string, unknown> | null | undefined): Record<string, string> {
  const had = typeof current?.["uncategorized_text"] === "string" ? current["uncategorized_text"] : "";
  const given = text.trim();
  return given !== "" && given !== had ? { uncategorized_text: given } : {};
}

/** Whether submitting would send any evidence: a member already on the dispute, or the text given. */
export function hasEvidence(text: string, current: Record<string, unknown> | null | undefined): boolean {
  return text.trim() !== "" || evidenceEntries(current).length > 0;
}
