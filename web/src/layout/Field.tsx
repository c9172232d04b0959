// A form's labelled controls: a label above a text input or a select,
// naming it by its id, whose value is the caller's state.
import type { InputHTMLAttributes, ReactNode } from "react";
import { Options } from "./Options";

/** A labelled input; the other attributes (maxLength, type, inputMode…) go to the input. */
export function InputField({
  id,
  label,
  value,
  onChange,
  ...input
}: { id: string; label: ReactNode; value: string | number; onChange: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...input} />
    </div>
  );
}

/** A labelled select of values, each shown as text(value) (the value itself by default), after an empty choice named any when given. */
export function SelectField<T extends string>(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (v: string) => void;
  values: readonly T[];
  text?: (v: T) => string;
  any?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.any !== undefined && <option value="">{props.any}</option>}
        <Options values={props.values} label={props.text} />
      </select>
    </div>
  );
}
