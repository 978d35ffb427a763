import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { type ButtonSize, type ButtonVariant, buttonClass } from './button';

type ButtonLinkProps = LinkComponentProps<'a'> & { variant?: ButtonVariant; size?: ButtonSize };

/** A link that looks like a button, for navigation (never for actions). */
export function ButtonLink({ variant, size, ...props }: ButtonLinkProps) {
  return <Link {...props} className={buttonClass(variant, size)} />;
}
