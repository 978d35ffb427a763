import type { Generated } from 'kysely';

/** Row types as both engines return them (int8 is parsed to number on PostgreSQL). */
export interface Database {
  users: {
    id: string;
    username: string;
    email: string;
    email_verified_at: number | null;
    pending_email: string | null;
    password_hash: string;
    display_name: Generated<string>;
    bio: Generated<string>;
    avatar: string;
    links: Generated<string>;
    pinned_app_ids: Generated<string>;
    created_at: number;
    deleted_at: number | null;
  };
  documents: {
    name: string;
    state: Uint8Array;
    updated_at: number;
  };
}
