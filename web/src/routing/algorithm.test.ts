import { describe, expect, it } from "vitest";
import { pictureOf, priority, problem, single, volumeSplit } from "./algorithm";

const a = { connector: "stripe_test", merchant_connector_id: "mca_a" };
const b = { connector: "adyen", merchant_connector_id: "mca_b" };
const label = (c: { merchant_connector_id: string }) => c.merchant_connector_id;

describe("routing algorithms", () => {
  it("builds Hyperswitch's shapes", () => {
    expect(single(a)).toEqual({ type: "single", data: a });
    expect(priority([b, a])).toEqual({ type: "priority", data: [b, a] });
    expect(volumeSplit([{ choice: a, split: 70 }, { choice: b, split: 30 }])).toEqual({
      type: "volume_split",
      data: [
        { connector: a, split: 70 },
        { connector: b, split: 30 },
      ],
    });
  });

  it("says what a form still lacks", () => {
    expect(problem(volumeSplit([{ choice: a, split: 70 }, { choice: b, split: 30 }]))).toBeNull();
    expect(problem(volumeSplit([{ choice: a, split: 70 }, { choice: b, split: 20 }]))).toMatch("90%");
    expect(problem(volumeSplit([{ choice: a, split: 100 }]))).toMatch("two");
    expect(problem(priority([a, a]))).toMatch("once");
    expect(problem(single({ connector: "", merchant_connector_id: "" }))).toMatch("Choose");
  });

  it("reads a stored configuration into the picture's branches", () => {
    const split = pictureOf(volumeSplit([{ choice: a, split: 70 }, { choice: b, split: 30 }]) as never, label);
    expect(split.branches.map((x) => [x.label, x.share])).toEqual([
      ["mca_a", 70],
      ["mca_b", 30],
    ]);
    expect(pictureOf(priority([b, a]) as never, label).branches.map((x) => x.label)).toEqual(["mca_b", "mca_a"]);
    const advanced = pictureOf(
      {
        type: "advanced",
        data: {
          defaultSelection: { type: "priority", data: [a] },
          rules: [{ name: "eu", connectorSelection: { type: "volume_split", data: [{ connector: b, split: 100 }] } }],
        },
      },
      label,
    );
    expect(advanced.branches.map((x) => [x.rule, x.label, x.share])).toEqual([
      ["eu", "mca_b", 100],
      ["otherwise", "mca_a", undefined],
    ]);
  });
});
