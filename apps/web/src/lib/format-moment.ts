const pad = (value: number) => String(value).padStart(2, '0');

/** "14:30 25/11/2026", in the viewer's time zone: how Vietnamese users write a moment. */
export function formatMoment(iso: string | Date): string {
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getHours())}:${pad(date.getMinutes())} ${pad(date.getDate())}/${pad(
    date.getMonth() + 1,
  )}/${date.getFullYear()}`;
}
