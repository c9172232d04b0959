// Routing configurations as the API takes and answers them (Hyperswitch's
// {type, data}, docs/rest.md#routing): built from the forms' choices, and
// read back into what the picture draws.

/** A connector account a configuration may choose. */
export interface Choice {
  connector: string;
  merchant_connector_id: string;
}

/** One share of a volume split, in percent. */
export interface Share {
  choice: Choice;
  split: number;
}

export type Algorithm =
  | { type: "single"; data: Choice }
  | { type: "priority"; data: Choice[] }
  | { type: "volume_split"; data: { connector: Choice; split: number }[] };

export function single(choice: Choice): Algorithm {
  return { type: "single", data: choice };
}

export function priority(choices: Choice[]): Algorithm {
  return { type: "priority", data: choices };
}

export function volumeSplit(shares: Share[]): Algorithm {
  return { type: "volume_split", data: shares.map((s) => ({ connector: s.choice, split: s.split })) };
}

/** Why a form's choices cannot be sent yet, or null; the server checks again. */
export function problem(a: Algorithm): string | null {
  switch (a.type) {
    case "single":
      return a.data.merchant_connector_id ? null : "Choose an account.";
    case "priority": {
      if (a.data.length === 0) return "Choose at least one account.";
      const ids = a.data.map((c) => c.merchant_connector_id);
      return new Set(ids).size === ids.length ? null : "Choose each account once.";
    }
    case "volume_split": {
      if (a.data.length < 2) return "Split between at least two accounts.";
      if (a.data.some((s) => !Number.isInteger(s.split) || s.split <= 0 || s.split > 100)) return "Each share is a whole percent from 1 to 100.";
      const total = a.data.reduce((t, s) => t + s.split, 0);
      return total === 100 ? null : `The shares add up to ${total}%, not 100%.`;
    }
  }
}

/** What the picture draws: the configuration's branches in order, a share each when split. */
export interface Branch {
  label: string;
  accountID: string;
  connector: string;
  share?: number;
  /** For an advanced configuration: the rule the branch belongs to. */
  rule?: string;
}

export interface Picture {
  kind: string;
  branches: Branch[];
}

const asChoice = (v: unknown): Choice | null => {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object") return null;
  return { connector: String(o["connector"] ?? ""), merchant_connector_id: String(o["merchant_connector_id"] ?? "") };
};

/** Reads a stored {type, data}; label names an account by its id. */
export function pictureOf(stored: Record<string, unknown>, label: (c: Choice) => string): Picture {
  const kind = String(stored["type"] ?? "");
  const data = stored["data"];
  const branch = (c: Choice | null, extra: Partial<Branch> = {}): Branch[] =>
    c ? [{ label: label(c), accountID: c.merchant_connector_id, connector: c.connector, ...extra }] : [];
  const selection = (sel: unknown, rule?: string): Branch[] => {
    const s = sel as Record<string, unknown> | null;
    const list = Array.isArray(s?.["data"]) ? (s!["data"] as unknown[]) : [];
    if (s?.["type"] === "volume_split")
      return list.flatMap((x) => {
        const o = x as Record<string, unknown>;
        return branch(asChoice(o["connector"]), { share: Number(o["split"]), ...(rule ? { rule } : {}) });
      });
    return list.flatMap((x) => branch(asChoice(x), rule ? { rule } : {}));
  };
  switch (kind) {
    case "single":
      return { kind, branches: branch(asChoice(data)) };
    case "priority":
      return { kind, branches: (Array.isArray(data) ? data : []).flatMap((c) => branch(asChoice(c))) };
    case "volume_split":
      return {
        kind,
        branches: (Array.isArray(data) ? data : []).flatMap((x) => {
          const o = x as Record<string, unknown>;
          return branch(asChoice(o["connector"]), { share: Number(o["split"]) });
        }),
      };
    case "advanced": {
      const d = (data ?? {}) as Record<string, unknown>;
      const rules = Array.isArray(d["rules"]) ? (d["rules"] as Record<string, unknown>[]) : [];
      return {
        kind,
        branches: [
          ...rules.flatMap((r) => selection(r["connectorSelection"], String(r["name"] ?? "rule"))),
          ...selection(d["defaultSelection"], "otherwise"),
        ],
      };
    }
    default:
      return { kind, branches: [] };
  }
}
