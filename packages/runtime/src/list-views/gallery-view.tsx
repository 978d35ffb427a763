import type { ReactNode } from 'react';
import { fitsViewField } from '@pipit/app-definition';
import { MORE_CARDS, MoreRows, useGrowingRows } from '../blocks/growing-rows';
import { SetupNote } from '../blocks/setup-note';
import { findField, isEmpty } from '../records';
import { safeHref } from '../safe-url';
import { EmptyView, titleText, valueText, type ViewProps } from './view-parts';
import { FileImage } from '../file-values';
import './list-views.css';

/**
 * A list as a gallery: a card per record with its picture and title. Pictures come from a web
 * address field (or an uploaded image's), only when the address is safe (safe-url.ts: http(s) or a
 * path on the site; `javascript:` and `data:` never reach `src`), lazily, in a box of fixed shape
 * so the page does not jump as they arrive.
 */
export function GalleryView({
  props,
  collection,
  records,
  titleField,
  subtitleField,
  open,
  emptyText,
  context,
}: ViewProps) {
  // A long gallery grows as a long list does: its first cards, then more near the end.
  const { shown, more, step } = useGrowingRows(records.length, MORE_CARDS);
  const imageField = findField(collection, props.imageFieldId);
  if (!imageField || !fitsViewField('imageFieldId', imageField.type)) {
    return <SetupNote>Choose a photo or web address field for this gallery’s pictures.</SetupNote>;
  }
  if (records.length === 0) return <EmptyView text={emptyText} />;
  return (
    <>
      <ul className="rt-gallery" aria-label={collection.name}>
        {records.slice(0, shown).map((record) => {
          const raw = record.values[imageField.id];
          const title = titleText(record, titleField);
          // A photo field's thumbnail (never the original: a gallery of hundreds stays light).
          const photo =
            imageField.type === 'image' && !isEmpty(raw) ? (
              <FileImage
                files={context.run?.files}
                collectionId={collection.id}
                value={raw}
                alt={title}
                className="rt-gallery-image"
              />
            ) : null;
          const src = photo || isEmpty(raw) ? null : safeHref(String(raw));
          const card = (
            <GalleryCard
              src={src}
              photo={photo}
              title={title}
              subtitle={valueText(record, subtitleField)}
            />
          );
          return (
            <li key={record.id} className="rt-gallery-item">
              {open ? (
                <button type="button" className="rt-gallery-card" onClick={() => open(record.id)}>
                  {card}
                </button>
              ) : (
                <div className="rt-gallery-card">{card}</div>
              )}
            </li>
          );
        })}
      </ul>
      <MoreRows left={records.length - shown} onMore={more} step={step} />
    </>
  );
}

/**
 * The picture says the title to a screen reader (its `alt`); the title written under it is then
 * hidden from one, so it is not read twice. Without a picture, the title is read as text.
 */
function GalleryCard({
  src,
  photo,
  title,
  subtitle,
}: {
  src: string | null;
  photo: ReactNode;
  title: string;
  subtitle: string;
}) {
  const pictured = src !== null || photo !== null;
  return (
    <>
      {photo ??
        (src ? (
          <img
            className="rt-gallery-image"
            src={src}
            alt={title}
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
          />
        ) : (
          <span className="rt-gallery-image rt-gallery-none" aria-hidden="true">
            🖼️
          </span>
        ))}
      <span className="rt-gallery-text">
        <span className="rt-list-title" aria-hidden={pictured ? true : undefined}>
          {title}
        </span>
        {subtitle && <span className="rt-list-subtitle">{subtitle}</span>}
      </span>
    </>
  );
}
