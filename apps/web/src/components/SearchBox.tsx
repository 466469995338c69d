import { Search } from 'lucide-react';
import { useId } from 'react';

interface SearchBoxProps {
  /** The searchbox's name (visually hidden label). */
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
}

/** A search input with a magnifier icon and a visually hidden label. */
export function SearchBox({ label, placeholder, value, onValueChange }: SearchBoxProps) {
  const id = useId();
  return (
    <div className="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Search size={18} aria-hidden="true" className="search__icon" />
      <input
        id={id}
        className="input search__input"
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
      />
    </div>
  );
}
