import { describe, expect, it } from "vitest";
import {
  base64Length,
  evidenceActions,
  evidenceEntries,
  evidenceLabel,
  evidenceToSubmit,
  fitsEvidenceCap,
  hasEvidence,
  maxEvidenceBase64,
  toBase64,
} from "./evidence";

describe("dispute evidence", () => {
  it("lists the files in EvidenceType order, then the text, leaving out empty members", () => {
    const entries = evidenceEntries({
      uncategorized_text: "we shipped it",
      receipt: "file_2",
      shipping_tracking_number: "1Z999",
      cancellation_policy: "file_1",
      customer_name: "",
      refund_policy: null,
    });
    expect(entries).toEqual([
      { member: "cancellation_policy", value: "file_1", file: true },
      { member: "receipt", value: "file_2", file: true },
      { member: "shipping_tracking_number", value: "1Z999", file: false },
      { member: "uncategorized_text", value: "we shipped it", file: false },
    ]);
    expect(evidenceEntries(null)).toEqual([]);
    expect(evidenceLabel("invoice_showing_distinct_transactions")).toBe("Invoice showing distinct transactions");
  });

  it("offers attach and submit to operators and admins, only for open or challenged disputes before arbitration", () => {
    const cases: [role: "ADMIN" | "OPERATOR" | "DEVELOPER" | "VIEWER", status: string, stage: string, allowed: boolean][] = [
      ["OPERATOR", "dispute_opened", "dispute", true],
      ["ADMIN", "dispute_challenged", "pre_arbitration", true],
      ["OPERATOR", "dispute_opened", "pre_dispute", true],
      ["DEVELOPER", "dispute_opened", "dispute", false],
      ["VIEWER", "dispute_opened", "dispute", false],
      ["OPERATOR", "dispute_won", "dispute", false],
      ["OPERATOR", "dispute_lost", "dispute", false],
      ["OPERATOR", "dispute_accepted", "dispute", false],
      ["OPERATOR", "dispute_opened", "arbitration", false],
      ["OPERATOR", "dispute_challenged", "dispute_reversal", false],
    ];
    for (const [role, status, stage, allowed] of cases) {
      expect(evidenceActions(role, status, stage), `${role} ${status} ${stage}`).toEqual({ attach: allowed, submit: allowed });
    }
  });

  it("caps a file at the base64 length the server takes (700 KiB of file)", () => {
    expect(maxEvidenceBase64).toBe(955733);
    expect(base64Length(0)).toBe(0);
    expect(base64Length(4)).toBe(8);
    expect(fitsEvidenceCap(700 * 1024 - 1)).toBe(true);
    // 716,800 bytes are 955,736 base64 characters: over the server's bound.
    expect(fitsEvidenceCap(700 * 1024)).toBe(false);
    expect(fitsEvidenceCap(5 << 20)).toBe(false);
  });

  it("encodes bytes in standard base64, large files included", () => {
    expect(toBase64(new TextEncoder().encode("%PDF-1.4\n"))).toBe("JVBERi0xLjQK");
    expect(toBase64(new Uint8Array([0xfb, 0xff]))).toBe("+/8=");
    const big = new Uint8Array(100_000).map((_, i) => i % 251);
    const encoded = toBase64(big);
    expect(encoded.length).toBe(base64Length(big.length));
    expect(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))).toEqual(big);
  });

  it("submits the uncategorized text only when it is new", () => {
    expect(evidenceToSubmit("  win  ", { receipt: "file_1" })).toEqual({ uncategorized_text: "win" });
    expect(evidenceToSubmit("win", { uncategorized_text: "win" })).toEqual({});
    expect(evidenceToSubmit("", { uncategorized_text: "win" })).toEqual({});
  });

  it("has nothing to submit without a member on the dispute or text", () => {
    expect(hasEvidence("  ", null)).toBe(false);
    expect(hasEvidence("", { receipt: "" })).toBe(false);
    expect(hasEvidence("", { receipt: "file_1" })).toBe(true);
    expect(hasEvidence("win", {})).toBe(true);
  });
});
