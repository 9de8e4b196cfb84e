/**
 * What the index page and each scene's header say about a scene: one paragraph on what it shows and
 * the D3D12 calls that drive it.
 */
export interface SceneMeta {
  /** The folder under demo/, also the URL path. */
  name: string;
  title: string;
  /** One paragraph: what the scene shows. */
  summary: string;
  /** The D3D12 calls that drive it, as the library names them. */
  calls: string[];
}
