// A dispute's Evidence section: the evidence as it stands (each member with
// its file id or text), and, for the roles that may while the dispute takes
// evidence, a form that attaches a file as one evidence type
// (attachDisputeEvidence, at most 700 KiB through GraphQL) and a form that
// submits the evidence with the uncategorized text (submitDisputeEvidence).
// Each form sends one idempotency key per intended action (useKeyedMutation).
import { useState, type FormEvent } from "react";
import { useKeyedMutation } from "../developers/actionKey";
import { Facts } from "../layout/Facts";
import { SelectField } from "../layout/Field";
import { SubmitRow } from "../layout/SubmitRow";
import type { Role } from "../lib/roles";
import {
  evidenceActions,
  evidenceEntries,
  evidenceFileTypes,
  evidenceLabel,
  evidenceToSubmit,
  hasEvidence,
  fitsEvidenceCap,
  toBase64,
  type EvidenceFileType,
} from "./evidence";
import { AttachDisputeEvidenceMutation, SubmitDisputeEvidenceMutation } from "./operations";

export function DisputeEvidence(props: {
  disputeID: string;
  status: string;
  stage: string;
  evidence: Record<string, unknown> | null | undefined;
  role: Role;
  done: () => void;
}) {
  const entries = evidenceEntries(props.evidence);
  const may = evidenceActions(props.role, props.status, props.stage);
  return (
    <section aria-labelledby="evidence-title" data-testid="dispute-evidence">
      <h2 id="evidence-title">Evidence</h2>
      {entries.length === 0 ? (
        <p>No evidence yet.</p>
      ) : (
        <Facts facts={entries.map((e) => [evidenceLabel(e.member), e.file ? <code>{e.value}</code> : e.value, `evidence-${e.member}`] as const)} />
      )}
      {may.attach && <AttachEvidence disputeID={props.disputeID} done={props.done} />}
      {may.submit && <SubmitEvidence disputeID={props.disputeID} evidence={props.evidence} done={props.done} />}
    </section>
  );
}

/** Attaches one file as one evidence type; nothing is submitted yet. */
function AttachEvidence({ disputeID, done }: { disputeID: string; done: () => void }) {
  const [state, attach] = useKeyedMutation(AttachDisputeEvidenceMutation);
  const [evidenceType, setEvidenceType] = useState<EvidenceFileType>("receipt");
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const busy = state.fetching || reading;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!file) return setProblem("Choose a file to attach.");
    if (!fitsEvidenceCap(file.size)) return setProblem(`${file.name} is larger than 700 KiB; upload it with PUT /disputes/evidence instead.`);
    setProblem(null);
    setReading(true);
    let contentBase64: string;
    try {
      contentBase64 = toBase64(new Uint8Array(await file.arrayBuffer()));
    } catch {
      setReading(false);
      return setProblem(`${file.name} could not be read.`);
    }
    setReading(false);
    const res = await attach({
      id: disputeID,
      evidenceType,
      fileName: file.name,
      fileType: file.type || "application/octet-stream",
      contentBase64,
    });
    if (res.data) {
      setFile(null);
      setInputKey((k) => k + 1);
      done();
    }
  };
  return (
    <form className="card" aria-labelledby="attach-evidence-title" onSubmit={submit}>
      <h3 id="attach-evidence-title">Attach a file</h3>
      <p>The file becomes the dispute's evidence of that type, replacing any file there; it is sent with the next submit.</p>
      <SelectField id="evidence-type" label="Evidence type" value={evidenceType} values={evidenceFileTypes} text={evidenceLabel}
        onChange={(v) => setEvidenceType(v as EvidenceFileType)} />
      <div className="field">
        <label htmlFor="evidence-file">File (at most 700 KiB)</label>
        <input key={inputKey} id="evidence-file" type="file" onChange={(e) => { setFile(e.target.files?.[0] ?? null); setProblem(null); }} />
      </div>
      <SubmitRow label="Attach file" busy={busy} text={problem} error={problem ? undefined : state.error} />
    </form>
  );
}

/** Submits the dispute's evidence (the attached files and the uncategorized text) to the connector. */
function SubmitEvidence(props: { disputeID: string; evidence: Record<string, unknown> | null | undefined; done: () => void }) {
  const [state, submitEvidence] = useKeyedMutation(SubmitDisputeEvidenceMutation);
  const had = props.evidence?.["uncategorized_text"];
  const [text, setText] = useState(typeof had === "string" ? had : "");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    // The API takes an empty submission, which would challenge the dispute
    // with nothing to show: the connector would decide against it.
    if (!hasEvidence(text, props.evidence)) return setProblem("Attach a file or write the text first: there is no evidence to submit.");
    setProblem(null);
    const res = await submitEvidence({ id: props.disputeID, evidence: evidenceToSubmit(text, props.evidence) });
    if (res.data) props.done();
  };
  return (
    <form className="card" aria-labelledby="submit-evidence-title" onSubmit={submit}>
      <h3 id="submit-evidence-title">Submit evidence</h3>
      <div className="field">
        <label htmlFor="uncategorized-text">Uncategorized text</label>
        <textarea id="uncategorized-text" rows={4} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <p>Submitting sends the files attached and this text to the connector; the dispute is challenged until it decides.</p>
      <SubmitRow label="Submit evidence" busy={state.fetching} text={problem} error={problem ? undefined : state.error} />
    </form>
  );
}
