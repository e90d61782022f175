// How long ago a run finished, in the words every surface uses (the status bar, the side panel, the Test
// Explorer's restored run): one function, so the panel (browser) and the extension host never word it apart.

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
export function ageText(finishedAt: string, now: Date): string {
  const seconds = (now.getTime() - new Date(finishedAt).getTime()) / 1000;
  if (!Number.isFinite(seconds) || seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
