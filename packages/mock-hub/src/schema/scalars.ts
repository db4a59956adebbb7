import { DEFAULT_TEXT } from "../models.js";
import { samplePattern } from "./pattern.js";
import type { Schema } from "./resolve.js";

/** Strings and numbers a reader takes for real: chosen by the property's name, then fitted to the schema's bounds. */

/** Texts by the last word of a property's name (`home_city` → city). */
const WORDS: Readonly<Record<string, string>> = {
  city: "Paris", location: "Paris", place: "Paris", destination: "Paris", capital: "Paris",
  country: "France", nationality: "French", language: "French", locale: "fr-FR", lang: "fr",
  name: "Ada Lovelace", author: "Ada Lovelace", person: "Ada Lovelace", first: "Ada", firstname: "Ada",
  last: "Lovelace", lastname: "Lovelace", surname: "Lovelace", username: "ada", user: "ada",
  title: "A Day in Paris", answer: DEFAULT_TEXT, text: DEFAULT_TEXT, content: DEFAULT_TEXT,
  description: DEFAULT_TEXT, summary: DEFAULT_TEXT, message: DEFAULT_TEXT, reason: DEFAULT_TEXT,
  explanation: DEFAULT_TEXT, query: "capital of France", question: "What is the capital of France?",
  color: "blue", colour: "blue", unit: "celsius", units: "celsius", status: "active", currency: "EUR",
  code: "FR", timezone: "Europe/Paris", zone: "Europe/Paris", time: "12:00", weather: "sunny", condition: "sunny", forecast: "sunny",
  company: "Hugging Face", organization: "Hugging Face", role: "engineer", job: "engineer",
  category: "travel", tag: "travel", keyword: "travel", label: "positive", sentiment: "positive",
  address: "1 Rue de Rivoli", street: "Rue de Rivoli", zip: "75001", postcode: "75001", phone: "+33 1 23 45 67 89",
}; // prettier-ignore

/** Numbers by the last word of a property's name. */
const NUMBERS: Readonly<Record<string, number>> = {
  age: 36, year: 2025, month: 6, day: 14, hour: 12, minute: 30, minutes: 30, temperature: 21, temp: 21,
  humidity: 65, latitude: 48.8566, lat: 48.8566, longitude: 2.3522, lon: 2.3522, lng: 2.3522,
  rating: 4.5, score: 0.9, confidence: 0.9, probability: 0.9, percent: 50, percentage: 50,
  population: 2102650, price: 12.5, cost: 12.5, amount: 12.5, weight: 70, height: 180, distance: 5,
  page: 1, limit: 10,
}; // prettier-ignore

const FORMATS: Readonly<Record<string, (slug: string) => string>> = {
  date: () => "2025-06-14",
  "date-time": () => "2025-06-14T12:30:00Z",
  time: () => "12:30:00Z",
  email: () => "ada@example.com",
  "idn-email": () => "ada@example.com",
  uri: (slug) => `https://example.com/${slug}`,
  url: (slug) => `https://example.com/${slug}`,
  iri: (slug) => `https://example.com/${slug}`,
  "uri-reference": (slug) => `https://example.com/${slug}`,
  uuid: () => "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  hostname: () => "example.com",
  ipv4: () => "192.0.2.1",
  ipv6: () => "2001:db8::1",
  duration: () => "PT1H",
};

/** A name's words, lower-cased: `homeCity`, `home_city` and `home-city` are "home city". */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A format implied by the name when the schema gives none (`email`, `website`, `created_at`). */
function impliedFormat(words: readonly string[]): string | undefined {
  const last = words.at(-1) ?? "";
  if (last === "email") return "email";
  if (["url", "uri", "link", "website", "homepage"].includes(last)) return "uri";
  if (["date", "birthday", "deadline"].includes(last)) return "date";
  return last === "at" || last === "timestamp" || last === "datetime" ? "date-time" : undefined;
}

/** A string for the property `name`: its format's, the pattern's, or words for it; `index` tells items apart. */
export function stringFor(schema: Schema, name: string, index: number): string {
  const natural = naturalString(schema, wordsOf(name), index);
  const { pattern } = schema;
  if (typeof pattern !== "string" || safeTest(pattern, natural)) return natural;
  return samplePattern(pattern) ?? natural;
}

function naturalString(schema: Schema, words: readonly string[], index: number): string {
  const format = typeof schema.format === "string" ? schema.format : impliedFormat(words);
  const formatted = format === undefined ? undefined : FORMATS[format]?.(words.join("-"));
  if (formatted !== undefined) return formatted;
  const base = WORDS[words.join("")] ?? WORDS[words.at(-1) ?? ""] ?? sentence(words);
  return fitLength(index > 0 ? `${base} ${index + 1}` : base, schema);
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return false;
  }
}

function sentence(words: readonly string[]): string {
  const text = words.join(" ") || "value";
  return text[0]?.toUpperCase() + text.slice(1);
}

function fitLength(text: string, schema: Schema): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  const long = text.length >= min ? text : text.padEnd(min, ` ${text}`);
  return [...long].slice(0, Math.max(max, 0)).join("");
}

/** A number for the property `name`, moved inside the schema's bounds and onto its `multipleOf` grid. */
export function numberFor(schema: Schema, name: string, integer: boolean): number {
  const words = wordsOf(name);
  const wanted = NUMBERS[words.join("")] ?? NUMBERS[words.at(-1) ?? ""] ?? (integer ? 3 : 2.5);
  const { low, high, lowOpen, highOpen } = bounds(schema);
  const multiple = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  const step = integer ? integerStep(multiple) : multiple;
  if (step !== undefined) {
    const first = lowOpen ? Math.floor(low / step) + 1 : Math.ceil(low / step);
    const last = highOpen ? Math.ceil(high / step) - 1 : Math.floor(high / step);
    const n = Math.min(Math.max(Math.round(wanted / step), first), Math.max(last, first));
    return Number((n * step).toPrecision(12));
  }
  if (wanted > low && wanted < high) return wanted;
  if ((wanted === low && !lowOpen) || (wanted === high && !highOpen)) return wanted;
  if (Number.isFinite(low) && Number.isFinite(high)) return (low + high) / 2;
  return wanted < low || (wanted === low && lowOpen) ? low + 1 : high - 1;
}

/** `minimum` / `exclusiveMinimum` (a number, or draft 4's boolean) and the same above. */
function bounds(schema: Schema): { low: number; high: number; lowOpen: boolean; highOpen: boolean } {
  const num = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
  const { minimum, maximum, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = schema;
  const lowOpen = typeof exMin === "number" ? exMin >= num(minimum, -Infinity) : exMin === true;
  const highOpen = typeof exMax === "number" ? exMax <= num(maximum, Infinity) : exMax === true;
  const low = typeof exMin === "number" && lowOpen ? exMin : num(minimum, -Infinity);
  const high = typeof exMax === "number" && highOpen ? exMax : num(maximum, Infinity);
  return { low, high, lowOpen, highOpen };
}

/** The smallest whole multiple of `multipleOf` (1 without one): the grid integers sit on. */
function integerStep(multiple: number | undefined): number {
  if (multiple === undefined) return 1;
  for (let k = 1; k <= 1000; k++)
    if (Math.abs(Math.round(multiple * k) - multiple * k) < 1e-9) return Math.round(multiple * k);
  return 1;
}
