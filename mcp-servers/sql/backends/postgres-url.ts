/** A PostgreSQL URL with its password hidden, for messages and redaction. */
export const safeUrl = (url: string) => url.replace(/(\/\/[^:/@]+):[^@/]*@/u, '$1:***@');
