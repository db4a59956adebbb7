/** This package's version (sent to servers as the client's version). */
export const VERSION = "0.1.0";
