/**
 * The picture of each scene on the index page: a screenshot that `npm run demo:pictures`
 * (demo-pictures/) makes and commits as demo/pictures/<name>.webp, every one of one size so that
 * the cards line up and the page can reserve their space before they load.
 */
export const PICTURE_WIDTH = 640;
export const PICTURE_HEIGHT = 400;

/** The picture's file, from the project root: where the script writes it and the unit test looks. */
export const picturePath = (name: string): string => `demo/pictures/${name}.webp`;

/**
 * The picture's URL for the page. A `new URL` on a template literal is what vite resolves under any
 * root: in dev it is the file beside this module (served at /pictures/ by `npm start`, at
 * /demo/pictures/ by the tests' project server); in `vite build --mode demo` the pictures become
 * hashed assets. (demo/public/ would be served only where demo/ is the root, and copied into the
 * bench and validation page builds as well.)
 */
export const pictureUrl = (name: string): string => new URL(`./pictures/${name}.webp`, import.meta.url).href;
