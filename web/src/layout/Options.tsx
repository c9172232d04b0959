// A select's options, one a value, each shown as label(value) (the value
// itself by default).
export function Options<T extends string>({ values, label }: { values: readonly T[]; label?: (v: T) => string }) {
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {label ? label(v) : v}
        </option>
      ))}
    </>
  );
}
