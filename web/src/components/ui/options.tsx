/** `<option>`s of a select from `[value, label]` pairs. */
export function Options({ items }: { items: readonly (readonly [string, string])[] }) {
  return items.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}
