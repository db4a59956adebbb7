/** One call per task, the same for both clients: its arguments (for a model id) and the answer expected from the mock hub. */
export const PNG_BYTES = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
export const image = (): Blob => new Blob([PNG_BYTES], { type: "image/png" });
export const audio = (): Blob => new Blob([new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4])], { type: "audio/wav" });
const TEXT = "The capital of France is Paris.";

export interface TaskCase {
  /** The method and standalone function. */
  name: string;
  /** The pipeline the mock model serves. */
  task: string;
  args: Record<string, unknown>;
  /** Arguments refused before any request, and the field named. */
  bad: Record<string, unknown>;
  badField: string;
  /** The expected answer (a Blob: its type; the bytes are checked apart). */
  expected: unknown;
  /** The path under the model the request goes to. */
  suffix?: string;
  /** The body is binary. */
  binaryBody?: boolean;
}

const classes = (a: string, b: string) => [
  { label: a, score: 0.5 },
  { label: b, score: 0.5 },
];

export const CASES: TaskCase[] = [
  {
    name: "audioClassification",
    task: "audio-classification",
    args: { inputs: audio() },
    bad: { inputs: "not audio" },
    badField: "inputs",
    expected: classes("neutral", "happy"),
    binaryBody: true,
  },
  {
    name: "audioToAudio",
    task: "audio-to-audio",
    args: { inputs: audio() },
    bad: { inputs: new Blob([]) },
    badField: "inputs",
    expected: [
      {
        label: "speech",
        "content-type": "audio/wav",
        blob: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=",
      },
    ],
    binaryBody: true,
  },
  {
    name: "automaticSpeechRecognition",
    task: "automatic-speech-recognition",
    args: { data: audio() },
    bad: { data: 42 },
    badField: "data",
    expected: { text: TEXT },
    binaryBody: true,
  },
  {
    name: "documentQuestionAnswering",
    task: "document-question-answering",
    args: { inputs: { question: "Invoice number?", image: image() } },
    bad: { inputs: { question: "", image: image() } },
    badField: "inputs.question",
    expected: { answer: "us-001", score: 0.9, start: 16, end: 16 },
  },
  {
    name: "featureExtraction",
    task: "feature-extraction",
    args: { inputs: "Hello world" },
    bad: { inputs: ["a", 1] },
    badField: "inputs",
    expected: [0.11, 0.2, 0.072, 0.5],
    suffix: "/pipeline/feature-extraction",
  },
  {
    name: "fillMask",
    task: "fill-mask",
    args: { inputs: "The capital of France is [MASK]." },
    bad: { inputs: "x", parameters: { top_k: 0 } },
    badField: "parameters.top_k",
    expected: [
      { score: 0.5, token: 3000, token_str: "paris", sequence: "The capital of France is paris." },
      { score: 0.5, token: 3001, token_str: "lyon", sequence: "The capital of France is lyon." },
    ],
  },
  {
    name: "imageClassification",
    task: "image-classification",
    args: { inputs: image() },
    bad: { inputs: null },
    badField: "inputs",
    expected: classes("tabby cat", "tiger cat"),
    binaryBody: true,
  },
  {
    name: "imageSegmentation",
    task: "image-segmentation",
    args: { inputs: image() },
    bad: { inputs: "x" },
    badField: "inputs",
    expected: [
      {
        label: "cat",
        score: 0.9,
        mask: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      },
    ],
  },
  {
    name: "imageToImage",
    task: "image-to-image",
    args: { inputs: image() },
    bad: { inputs: new ArrayBuffer(0) },
    badField: "inputs",
    expected: "image/png",
    binaryBody: true,
  },
  {
    name: "imageToText",
    task: "image-to-text",
    args: { data: image() },
    bad: { data: "x" },
    badField: "data",
    expected: { generated_text: TEXT },
    binaryBody: true,
  },
  {
    name: "objectDetection",
    task: "object-detection",
    args: { inputs: image() },
    bad: { inputs: {} },
    badField: "inputs",
    expected: [{ label: "cat", score: 0.9, box: { xmin: 1, ymin: 2, xmax: 30, ymax: 40 } }],
    binaryBody: true,
  },
  {
    name: "questionAnswering",
    task: "question-answering",
    args: { inputs: { question: "Capital?", context: "The capital is Paris" } },
    bad: { inputs: { question: "Capital?" } },
    badField: "inputs.context",
    expected: { answer: "Paris", score: 0.9876, start: 15, end: 20 },
  },
  {
    name: "sentenceSimilarity",
    task: "sentence-similarity",
    args: { inputs: { source_sentence: "a cat", sentences: ["a cat", "a dog!"] } },
    bad: { inputs: { source_sentence: "a", sentences: [] } },
    badField: "inputs.sentences",
    expected: [1, 0.5],
    suffix: "/pipeline/sentence-similarity",
  },
  {
    name: "summarization",
    task: "summarization",
    args: { inputs: "A long text." },
    bad: { inputs: 3 },
    badField: "inputs",
    expected: { summary_text: TEXT },
  },
  {
    name: "tableQuestionAnswering",
    task: "table-question-answering",
    args: { inputs: { question: "Which?", table: { Repo: ["transformers", "datasets"] } } },
    bad: { inputs: { question: "Which?", table: { a: ["1"], b: [] } } },
    badField: "inputs.table",
    expected: { answer: "transformers", coordinates: [[0, 0]], cells: ["transformers"], aggregator: "NONE" },
  },
  {
    name: "tabularClassification",
    task: "tabular-classification",
    args: { inputs: { data: { a: ["1", "2", "3"] } } },
    bad: { inputs: { data: "x" } },
    badField: "inputs.data",
    expected: [0, 1, 0],
  },
  {
    name: "tabularRegression",
    task: "tabular-regression",
    args: { inputs: { data: { a: ["1", "2"] } } },
    bad: { inputs: {} },
    badField: "inputs.data",
    expected: [1.5, 3],
  },
  {
    name: "textClassification",
    task: "text-classification",
    args: { inputs: "I like you." },
    bad: { inputs: "" },
    badField: "inputs",
    expected: classes("POSITIVE", "NEGATIVE"),
  },
  {
    name: "textToAudio",
    task: "text-to-audio",
    args: { inputs: "a jazz riff" },
    bad: { inputs: ["x"] },
    badField: "inputs",
    expected: "audio/wav",
  },
  {
    name: "textToImage",
    task: "text-to-image",
    args: { inputs: "a cat" },
    bad: { inputs: "a cat", parameters: "big" },
    badField: "parameters",
    expected: "image/png",
  },
  {
    name: "textToSpeech",
    task: "text-to-speech",
    args: { inputs: "Hello" },
    bad: {},
    badField: "inputs",
    expected: "audio/wav",
  },
  {
    name: "tokenClassification",
    task: "token-classification",
    args: { inputs: "Paris is nice" },
    bad: { inputs: undefined },
    badField: "inputs",
    expected: [{ entity_group: "LOC", score: 0.9991, word: "Paris", start: 0, end: 5 }],
  },
  {
    name: "translation",
    task: "translation",
    args: { inputs: "Bonjour" },
    bad: { inputs: {} },
    badField: "inputs",
    expected: { translation_text: TEXT },
  },
  {
    name: "visualQuestionAnswering",
    task: "visual-question-answering",
    args: { inputs: { question: "What?", image: image() } },
    bad: { inputs: { question: "What?", image: "cat.png" } },
    badField: "inputs.image",
    expected: { answer: "cat", score: 0.9 },
  },
  {
    name: "zeroShotClassification",
    task: "zero-shot-classification",
    args: { inputs: "I love football", parameters: { candidate_labels: ["sport", "politics"] } },
    bad: { inputs: "x", parameters: { candidate_labels: [] } },
    badField: "parameters.candidate_labels",
    expected: classes("sport", "politics"),
  },
  {
    name: "zeroShotImageClassification",
    task: "zero-shot-image-classification",
    args: { inputs: image(), parameters: { candidate_labels: ["cat", "dog"] } },
    bad: { inputs: image() },
    badField: "parameters",
    expected: classes("cat", "dog"),
  },
];

/** The tasks no hf-inference model serves: an InputError whatever the arguments, nothing sent. */
export const UNSUPPORTED = ["textToVideo", "imageToVideo", "imageTextToImage", "imageTextToVideo"];
