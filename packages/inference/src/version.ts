/** The package version, sent as `User-Agent: hfkit/<version>` outside browsers (a test keeps it in step). */
export const VERSION = "0.1.0";
