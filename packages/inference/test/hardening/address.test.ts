/** Which hosts are inside the network: the literal forms a provider's answer may use, and the public hosts beside them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInternalUrl } from "../../src/core/address";

describe("isInternalUrl", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.255.1.2:8080/x",
    "http://0.0.0.0/",
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://169.254.169.254/latest/meta-data",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.255/",
    "http://255.255.255.255/",
    "http://localhost:3000/",
    "http://LOCALHOST/",
    "http://api.localhost/",
    "http://localhost./",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fd00:ec2::254]/",
    "http://[fc12:3456::1]/",
    "http://[fe80::1]/",
    "http://[febf::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "https://127.1/",
  ])("%s is inside", (url) => expect(isInternalUrl(url)).toBe(true));

  it.each([
    "https://cdn.example/x.png",
    "https://10.example.com/",
    "https://localhost.example.com/",
    "http://8.8.8.8/",
    "http://11.0.0.1/",
    "http://126.255.255.255/",
    "http://128.0.0.1/",
    "http://169.253.1.1/",
    "http://169.255.1.1/",
    "http://172.15.0.1/",
    "http://172.32.0.1/",
    "http://192.167.1.1/",
    "http://192.169.1.1/",
    "http://100.63.255.255/",
    "http://100.128.0.1/",
    "http://[2001:db8::1]/",
    "http://[fe00::1]/",
    "http://[fec0::1]/",
    "http://[fb00::1]/",
    "http://[fc::1]/",
    "not a url",
  ])("%s is not", (url) => expect(isInternalUrl(url)).toBe(false));

  it("every address of 10/8, 127/8, 192.168/16 and 169.254/16 is inside; 11/8 to 126/8 (but 100.64/10) are not", () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom("10", "127", "192.168", "169.254"), octet, octet, octet, (prefix, a, b, c) => {
        const rest = prefix.includes(".") ? [a, b] : [a, b, c];
        return isInternalUrl(`http://${prefix}.${rest.join(".")}/`);
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 11, max: 126 }),
        octet,
        octet,
        octet,
        (first, a, b, c) => isInternalUrl(`http://${first}.${a}.${b}.${c}/`) === (first === 100 && a >= 64 && a <= 127),
      ),
    );
  });
});
