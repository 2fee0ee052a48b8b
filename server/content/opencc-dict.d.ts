// opencc-js ships its dictionaries as modules whose default export is "from to|from to|..." text.
declare module "opencc-js/dict/*" {
  const dict: string;
  export default dict;
}
