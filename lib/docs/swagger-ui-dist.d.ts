/** The package's files as text: esbuild's text loader (the import attribute) in the CDK bundle. */
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
