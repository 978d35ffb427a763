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
  sessions: {
    id: string;
    secret_hash: string;
    user_id: string;
    created_at: number;
    last_seen_at: number;
    expires_at: number;
    user_agent: string | null;
    ip: string | null;
  };
  tokens: {
    hash: string;
    kind: string;
    user_id: string;
    email: string | null;
    created_at: number;
    expires_at: number;
    used_at: number | null;
  };
  username_holds: { username: string; user_id: string; held_at: number };
  operators: { user_id: string; added_at: number };
  rate_limits: { key: string; window_start: number; count: number };
  ai_quota: { user_id: string; day: number; runs: number };
  ai_usage: {
    day: number;
    app_id: string;
    user_id: string;
    runs: number;
    prompt_tokens: number;
    completion_tokens: number;
  };
  spaces: {
    id: string;
    app_id: string;
    owner_id: string;
    name: string;
    created_at: number;
    deleted_at: number | null;
  };
  space_members: {
    space_id: string;
    user_id: string;
    app_id: string;
    role: string;
    joined_at: number;
  };
  space_endings: {
    space_id: string;
    user_id: string;
    app_id: string;
    why: string;
    ended_at: number;
  };
  space_removals: {
    space_id: string;
    user_id: string;
    removed_at: number;
  };
  space_invites: {
    id: string;
    space_id: string;
    token_hash: string;
    role: string;
    created_by: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
  };
  checkpoints: {
    id: string;
    app_id: string;
    kind: string;
    name: string | null;
    version: number | null;
    created_at: number;
    created_by: string | null;
    author_ids: string;
    changes: string;
    definition_hash: string;
    definition: Uint8Array;
    size: number;
  };
  app_changes: {
    id: string;
    app_id: string;
    entity: string;
    entity_id: string;
    paths: string;
    kind: string;
    author_id: string | null;
    at: number;
  };
  app_suggestions: {
    id: string;
    app_id: string;
    asked: string;
    summary: string;
    earlier: string;
    base: Uint8Array;
    proposed: Uint8Array;
    size: number;
    status: string;
    created_by: string | null;
    created_at: number;
    closed_by: string | null;
    closed_at: number | null;
  };
  app_drafts: {
    id: string;
    app_id: string;
    name: string;
    base: Uint8Array;
    base_at: number;
    status: string;
    created_by: string | null;
    created_at: number;
    closed_by: string | null;
    closed_at: number | null;
  };
  backup_runs: {
    id: string;
    instance: string;
    started_at: number;
    finished_at: number;
    status: string;
    file: string | null;
    bytes: number | null;
    rows: number | null;
    drill: string | null;
    message: string | null;
  };
  instance_status: {
    name: string;
    version: string;
    started_at: number;
    seen_at: number;
    sockets: number;
    documents: number;
    rss_bytes: number;
    heap_bytes: number;
    window_ms: number;
    requests: number;
    server_errors: number;
  };
  storage_sizes: { day: number; bytes: number };
  human_check_uses: { signature: string; expires_at: number };
  server_secrets: { name: string; value: string; created_at: number };
  messages: {
    id: string;
    kind: string;
    user_id: string | null;
    email: string | null;
    body: string;
    page: string | null;
    created_at: number;
  };
  uploads: {
    id: string;
    user_id: string;
    content_type: string;
    bytes: Uint8Array;
    size: number;
    created_at: number;
    /** The app an image was uploaded to; null for avatars. */
    app_id: Generated<string | null>;
  };
  /**
   * Every upload id ever stored, kept after the upload is deleted: an id once used is never given
   * to other bytes (an import keeps an image's id only when it is not here).
   */
  upload_ids: { id: string; registered_at: number };
  /** Photos and files on records, per scope (docs/product/records.md#photos-and-files-on-records). */
  record_files: {
    scope: string;
    hash: string;
    app_id: string;
    space_id: string | null;
    owner_id: string;
    uploaded_by: string;
    kind: string;
    content_type: string;
    bytes: Uint8Array;
    thumbnail: Uint8Array | null;
    width: number | null;
    height: number | null;
    size: number;
    created_at: number;
  };
  /** Web Push subscriptions (docs/decisions/0012-web-push-and-scheduler.md#subscriptions). */
  push_subscriptions: {
    id: string;
    user_id: string;
    app_id: string;
    device_id: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    vapid_public_key: string;
    created_at: number;
    last_success_at: number | null;
    failures: Generated<number>;
    disabled_at: number | null;
  };
  app_imports: {
    user_id: string;
    export_id: string;
    source_app_id: string;
    app_id: string;
    origin: string;
    imported_at: number;
  };
  app_ids: {
    id: string;
    owner_id: string;
    registered_at: number;
    deleted_at: number | null;
  };
  apps: {
    id: string;
    owner_id: string;
    title: string;
    description: Generated<string>;
    icon: string | null;
    tags: Generated<string>;
    visibility: Generated<string>;
    archived_at: number | null;
    forked_from: string | null;
    forked_from_version: number | null;
    forked_from_public_at: number | null;
    published_version: number | null;
    published_at: number | null;
    opens: Generated<number>;
    installs: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  app_versions: {
    app_id: string;
    number: number;
    definition: string;
    publisher_id: string;
    published_at: number;
    title: string;
    description: string;
    icon: string | null;
    tags: string;
    search_text: string;
  };
  app_version_tags: { app_id: string; number: number; tag: string };
  app_events: { app_id: string; kind: string; visitor: string; created_at: number };
  collaborators: {
    app_id: string;
    user_id: string;
    role: string;
    invited_by: string;
    added_at: number;
  };
  document_clients: {
    name: string;
    client: number;
    user_id: string;
  };
  document_updates: {
    seq: Generated<number>;
    name: string;
    update: Uint8Array;
    created_at: number;
  };
  error_groups: {
    fingerprint: string;
    source: string;
    type: string;
    message: string;
    top_frame: string | null;
    count: number;
    first_seen: number;
    last_seen: number;
  };
  error_events: {
    id: string;
    fingerprint: string;
    received_at: number;
    digest: string | null;
    route: string | null;
    url: string | null;
    browser: string | null;
    release: string | null;
    environment: string | null;
    level: string;
    event: string;
  };
  report_drops: { day: number; reason: string; count: number };
  /** The Pipit platform's own push subscriptions (docs/product/reminders.md#creators-notifications). */
  platform_push_subscriptions: {
    id: string;
    user_id: string;
    device_id: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    vapid_public_key: string;
    created_at: number;
    last_success_at: number | null;
    failures: Generated<number>;
    disabled_at: number | null;
  };
  creator_notifications: {
    id: string;
    user_id: string;
    app_id: string;
    kind: string;
    actor_id: string | null;
    dedupe_key: string;
    created_at: number;
    digest_pending: number;
    digested_at: number | null;
  };
  creator_notification_settings: {
    user_id: string;
    email_digest: string;
    updated_at: number;
    /** IANA zone the daily digest keeps to; null: not told yet (migration 0026). */
    time_zone: string | null;
  };
  creator_digests: {
    user_id: string;
    day: string;
    status: string;
    claimed_by: string;
    updated_at: number;
  };
  reminder_preferences: {
    user_id: string;
    app_id: string;
    reminder_id: string;
    enabled: number;
    preferences: string;
    updated_at: number;
  };
  reminder_deliveries: {
    user_id: string;
    app_id: string;
    reminder_id: string;
    occurrence: number;
    status: string;
    claimed_by: string;
    updated_at: number;
  };
  space_activity_preferences: {
    space_id: string;
    user_id: string;
    enabled: number;
    show_names: number;
    updated_at: number;
  };
  space_activity_items: {
    id: string;
    space_id: string;
    recipient_id: string;
    author_id: string;
    kind: string;
    record_id: string;
    name: string | null;
    created_at: number;
    window_end: number;
    claimed_by: string | null;
  };
  jobs: {
    id: string;
    kind: string;
    key: string;
    payload: string;
    run_at: number;
    attempts: Generated<number>;
    lease_until: number | null;
    leased_by: string | null;
    last_error: string | null;
    done_at: number | null;
    failed_at: number | null;
  };
}
