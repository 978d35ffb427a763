/** A route's <head>: the document title (“Page · Pipit”) and a description. */
export function pageHead(title: string, description?: string) {
  return {
    meta: [
      { title: title === 'Pipit' ? title : `${title} · Pipit` },
      ...(description ? [{ name: 'description', content: description }] : []),
    ],
  };
}
