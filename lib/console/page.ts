// What a page handler answers: a page (title and rendered body) that the router wraps in the layout, or a finished
// HTTP result (a redirect, an asset).
export interface PageResult {
  readonly status?: number;
  readonly title: string;
  readonly body: string;
  /** A message shown above the body in an error box (a form's refusal, naming the field). */
  readonly error?: string;
  /** The page refreshes its `[data-refresh]` region (loads the one script). */
  readonly script?: boolean;
  readonly headers?: Record<string, string>;
}

export const isPage = (value: object): value is PageResult => 'title' in value && 'body' in value;
