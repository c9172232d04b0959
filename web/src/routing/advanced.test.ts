import { describe, expect, it } from "vitest";
import {
  comparisons,
  fieldOfPath,
  fromAlgorithm,
  operatorsOf,
  programWords,
  ruleWords,
  toAlgorithm,
  type Condition,
  type Fact,
  type Program,
} from "./advanced";

const stripe = { connector: "stripe_test", merchant_connector_id: "mca_a" };
const adyen = { connector: "adyen", merchant_connector_id: "mca_b" };
const label = (c: { connector: string }) => c.connector;

const cmp = (lhs: string, comparison: string, type: string, value: unknown, metadata: object = {}) => ({
  lhs,
  comparison,
  value: { type, value },
  metadata,
});
const usd = { currency: "USD" };

/** A program as the editor writes it: flat statements, every value type and comparison. */
const everything = {
  type: "advanced",
  data: {
    defaultSelection: { type: "priority", data: [adyen, stripe] },
    metadata: {},
    rules: [
      {
        name: "single amounts",
        connectorSelection: { type: "priority", data: [stripe] },
        statements: comparisons.map((c) => ({ condition: [cmp("amount", c, "number", 10000, usd)] })),
      },
      {
        name: "amount lists",
        connectorSelection: {
          type: "volume_split",
          data: [
            { connector: stripe, split: 70 },
            { connector: adyen, split: 30 },
          ],
        },
        statements: [
          { condition: [cmp("amount", "equal", "number_array", [1000, 2500], usd)] },
          { condition: [cmp("amount", "not_equal", "number_array", [99], usd)] },
          {
            condition: [
              cmp(
                "amount",
                "equal",
                "number_comparison_array",
                comparisons.map((c, i) => ({ comparisonType: c, number: 100 * (i + 1) })),
                usd,
              ),
            ],
          },
          { condition: [cmp("amount", "not_equal", "number_comparison_array", [{ comparisonType: "less_than", number: 5 }], usd)] },
        ],
      },
      {
        name: "enums, strings, metadata",
        connectorSelection: { type: "priority", data: [adyen] },
        statements: [
          {
            condition: [
              cmp("currency", "equal", "enum_variant", "EUR"),
              cmp("currency", "not_equal", "enum_variant", "GBP"),
              cmp("card_network", "equal", "enum_variant_array", ["Visa", "Mastercard"]),
              cmp("billing_country", "not_equal", "enum_variant_array", ["Netherlands"]),
            ],
          },
          {
            condition: [
              cmp("card_bin", "equal", "str_value", "424242"),
              cmp("business_label", "not_equal", "str_value", "outlet"),
              cmp("metadata", "equal", "metadata_variant", { key: "tier", value: "gold" }),
              cmp("metadata", "not_equal", "metadata_variant", { key: "channel", value: "" }),
            ],
          },
        ],
      },
    ],
  },
};

describe("advanced programs ⇄ the editor", () => {
  it("round-trips every value type and every comparison", () => {
    const model = fromAlgorithm(everything)!;
    expect(model.rules).toHaveLength(3);
    expect(model.rules[0]!.groups.map((g) => g[0]!.comparison)).toEqual([...comparisons]);
    expect(model.rules[0]!.groups[0]![0]).toMatchObject({ fact: "amount", valueType: "number", text: "100.00", currency: "USD" });
    expect(model.rules[1]!.groups[2]![0]!.bounds.map((b) => [b.comparison, b.amount])).toEqual(
      comparisons.map((c, i) => [c, `${i + 1}.00`]),
    );
    expect(model.rules[2]!.groups[1]![2]).toMatchObject({ fact: "metadata", key: "tier", text: "gold" });
    const { algorithm, problems } = toAlgorithm(model);
    expect(problems).toEqual([]);
    expect(algorithm).toEqual(everything);
  });

  it("converts amounts by the currency's exponent: USD, JPY, KWD", () => {
    const amount = (text: string, currency: string): Condition => ({
      fact: "amount",
      valueType: "number",
      comparison: "greater_than_equal",
      text,
      list: [],
      bounds: [],
      key: "",
      currency,
    });
    const program = (c: Condition): Program => ({
      rules: [{ name: "r", groups: [[c]], output: { kind: "priority", rows: [{ choice: stripe, split: 0 }] } }],
      otherwise: { kind: "priority", rows: [{ choice: adyen, split: 0 }] },
    });
    const minor = (c: Condition) => {
      const { algorithm, problems } = toAlgorithm(program(c));
      if (problems.length) return problems[0]!.message;
      const rules = algorithm.data["rules"] as { statements: { condition: { value: { value: unknown } }[] }[] }[];
      return rules[0]!.statements[0]!.condition[0]!.value.value;
    };
    expect(minor(amount("100.00", "USD"))).toBe(10000);
    expect(minor(amount("100", "USD"))).toBe(10000);
    expect(minor(amount("1000", "JPY"))).toBe(1000);
    expect(minor(amount("1.250", "KWD"))).toBe(1250);
    expect(minor(amount("12.345", "KWD"))).toBe(12345);
    expect(minor(amount("12.345", "USD"))).toMatch("not an amount in USD (2 decimals at most)");
    expect(minor(amount("10.5", "JPY"))).toMatch("not an amount in JPY (0 decimals at most)");
    expect(minor(amount("", "USD"))).toBe("Type an amount.");
    expect(minor({ ...amount("", "KWD"), valueType: "number_array", list: ["1.5", "0.125"] })).toEqual([1500, 125]);

    // Read back: minor units in the currency stated, else the one the group tests, else USD.
    const read = (condition: object[]) =>
      fromAlgorithm({
        type: "advanced",
        data: {
          defaultSelection: { type: "priority", data: [stripe] },
          rules: [{ name: "r", connectorSelection: { type: "priority", data: [stripe] }, statements: [{ condition }] }],
        },
      })!.rules[0]!.groups[0]!.find((c) => c.fact === "amount")!;
    expect(read([cmp("amount", "greater_than", "number", 1000, { currency: "JPY" })])).toMatchObject({ text: "1000", currency: "JPY" });
    expect(read([cmp("currency", "equal", "enum_variant", "KWD"), cmp("amount", "less_than", "number", 1250)])).toMatchObject({
      text: "1.250",
      currency: "KWD",
    });
    expect(read([cmp("amount", "less_than", "number", 1250)])).toMatchObject({ text: "12.50", currency: "USD" });
  });

  it("flattens nested statements into groups that route the same", () => {
    const nested = fromAlgorithm({
      type: "advanced",
      data: {
        defaultSelection: { type: "priority", data: [{ connector: "stripe_test" }] },
        rules: [
          {
            name: "dutch cards",
            connectorSelection: { type: "priority", data: [{ connector: "adyen" }] },
            statements: [
              {
                condition: [cmp("payment_method", "equal", "enum_variant", "card")],
                nested: [
                  { condition: [cmp("billing_country", "equal", "enum_variant", "Netherlands")] },
                  { condition: [cmp("card_network", "equal", "enum_variant", "Visa")], nested: [] },
                ],
              },
              { condition: [cmp("metadata", "equal", "metadata_variant", { key: "vip", value: "yes" })] },
            ],
          },
        ],
      },
    })!;
    // A statement whose nested list is empty never holds: it leaves no group.
    expect(nested.rules[0]!.groups.map((g) => g.map((c) => `${c.fact}=${c.text}`))).toEqual([
      ["payment_method=card", "billing_country=Netherlands"],
      ["metadata=yes"],
    ]);
    const { algorithm } = toAlgorithm(nested);
    const rule = (algorithm.data["rules"] as { statements: unknown[]; connectorSelection: unknown }[])[0]!;
    expect(rule.statements).toHaveLength(2);
    expect(rule.connectorSelection).toEqual({ type: "priority", data: [{ connector: "adyen" }] });
    expect(fromAlgorithm({ type: "priority", data: [] })).toBeNull();
  });

  it("says what keeps a program from being sent, at its field", () => {
    const model = fromAlgorithm(everything)!;
    model.rules[0]!.name = " ";
    model.rules[1]!.output.rows[1]!.split = 20;
    model.rules[2]!.groups[0]![2]!.list = [];
    model.rules[2]!.groups[1]![2]!.key = "";
    model.otherwise.rows = [];
    expect(toAlgorithm(model).problems).toEqual([
      { field: "adv-r0-name", message: "Name the rule." },
      { field: "adv-r1-out", message: "The shares add up to 90%, not 100%." },
      { field: "adv-r2-g0-c2-value", message: "Add at least one value." },
      { field: "adv-r2-g1-c2-value", message: "Type the metadata key." },
      { field: "adv-default-out", message: "Choose at least one account." },
    ]);
  });

  it("finds the field an API error names", () => {
    expect(fieldOfPath("name")).toBe("adv-name");
    expect(fieldOfPath("algorithm.data.rules[2].name")).toBe("adv-r2-name");
    expect(fieldOfPath("algorithm.data.rules[0].statements[1].condition[3].value.value")).toBe("adv-r0-g1-c3-value");
    expect(fieldOfPath("algorithm.data.rules[0].statements[0].condition[0].lhs")).toBe("adv-r0-g0-c0-fact");
    expect(fieldOfPath("algorithm.data.rules[0].statements[0].condition[0].comparison")).toBe("adv-r0-g0-c0-op");
    expect(fieldOfPath("algorithm.data.rules[1].connectorSelection.data[1].connector")).toBe("adv-r1-out-1");
    expect(fieldOfPath("algorithm.data.rules[1].connectorSelection.data")).toBe("adv-r1-out");
    expect(fieldOfPath("algorithm.data.rules[1].statements")).toBe("adv-r1");
    expect(fieldOfPath("algorithm.data.defaultSelection.data[0]")).toBe("adv-default-out-0");
    expect(fieldOfPath("algorithm.data.defaultSelection")).toBe("adv-default-out");
    expect(fieldOfPath("profile_id")).toBeNull();
  });

  it("offers each fact's comparisons by value type", () => {
    const amount: Fact = {
      name: "amount",
      kind: "number",
      values: [],
      valueTypes: [
        { type: "number", comparisons: [...comparisons] },
        { type: "number_array", comparisons: ["equal", "not_equal"] },
      ],
    };
    expect(operatorsOf(amount).map((o) => o.label)).toEqual([
      "= (is exactly)",
      "≠ (is not)",
      "< (less than)",
      "≤ (at most)",
      "> (more than)",
      "≥ (at least)",
      "is one of",
      "is none of",
    ]);
  });

  it("says a program in words", () => {
    const program = fromAlgorithm({
      type: "advanced",
      data: {
        defaultSelection: { type: "priority", data: [adyen] },
        rules: [
          {
            name: "big dollars",
            connectorSelection: { type: "priority", data: [stripe, adyen] },
            statements: [
              {
                condition: [
                  cmp("currency", "equal", "enum_variant", "USD"),
                  cmp("amount", "greater_than_equal", "number", 10000, usd),
                ],
              },
              { condition: [cmp("amount", "greater_than", "number", 123456, { currency: "KWD" })] },
            ],
          },
          {
            name: "gold",
            connectorSelection: { type: "volume_split", data: [{ connector: adyen, split: 80 }, { connector: stripe, split: 20 }] },
            statements: [
              { condition: [cmp("metadata", "equal", "metadata_variant", { key: "tier", value: "gold" }), cmp("card_network", "not_equal", "enum_variant_array", ["Visa", "JCB"])] },
            ],
          },
        ],
      },
    })!;
    expect(ruleWords(program.rules[0]!, label)).toBe(
      "If currency is USD and amount ≥ 100.00, or amount > 123.456 KWD → stripe_test, then adyen",
    );
    expect(programWords(program, label)).toEqual([
      "big dollars: If currency is USD and amount ≥ 100.00, or amount > 123.456 KWD → stripe_test, then adyen",
      "gold: If metadata tier is gold and card network is none of Visa, JCB → 80% adyen, 20% stripe_test",
      "Otherwise → adyen",
    ]);
  });
});
