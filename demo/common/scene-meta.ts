/**
 * What the index page and each scene's header say about a scene: a one-line tagline and a picture
 * for the index's card, one paragraph on what it shows and the D3D12 calls that drive it.
 */
export interface SceneMeta {
  /** The folder under demo/, also the URL path. */
  name: string;
  title: string;
  /** One line under the card's picture: what you see (at most TAGLINE_MAX_CHARS). */
  tagline: string;
  /** The alt text of the card's picture (demo/scene-pictures.ts): what the screenshot shows. */
  pictureAlt: string;
  /** One paragraph: what the scene shows (the scene's header, the index's "About the scenes"). */
  summary: string;
  /** The D3D12 calls that drive it, as the library names them. */
  calls: string[];
}

/** A tagline fits one line of a card three to a row on a desktop, in two or three lines. */
export const TAGLINE_MAX_CHARS = 110;
