import { Link, type LinkComponentProps } from '@tanstack/react-router';
import type { ButtonHTMLAttributes } from 'react';
import './button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'medium' | 'small';

export function buttonClass(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'medium',
): string {
  return `button button--${variant}${size === 'small' ? ' button--small' : ''}`;
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={`${buttonClass(variant, size)}${className ? ` ${className}` : ''}`}
      {...props}
    />
  );
}

type ButtonLinkProps = LinkComponentProps<'a'> & { variant?: ButtonVariant; size?: ButtonSize };

/** A link that looks like a button, for navigation (never for actions). */
export function ButtonLink({ variant, size, ...props }: ButtonLinkProps) {
  return <Link {...props} className={buttonClass(variant, size)} />;
}
