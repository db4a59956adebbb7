import { faultProblem } from "./faultChecks.js";
import type { Timers } from "./timers.js";
import type { Fault, FaultRule, FaultType } from "./types.js";

const DEFAULT_ESTIMATED_TIME_S = 20;
/** Faults of a structured answer break the next one only, unless `times` says more. */
const ONCE_BY_DEFAULT: readonly FaultType[] = ["badJson", "schemaViolation"];

export type FaultSource = "config" | "inject";

class Rule implements FaultRule {
  hits = 0;
  active = true;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly fault: Fault,
    readonly model: string | undefined,
    readonly provider: string | undefined,
    public remaining: number | undefined,
    readonly endsAt: number | undefined,
    readonly source: FaultSource,
    private readonly onRemove: (rule: Rule) => void,
  ) {}

  remove(): void {
    if (!this.active) return;
    this.active = false;
    this.onRemove(this);
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }

  /** Resolves once the rule is removed, or at once when it already is. */
  whenRemoved(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.listeners.add(resolve));
  }
}

/** The scripted faults: which apply to a request, and how many uses each has left. */
export class FaultRegistry {
  private readonly rules: Rule[] = [];

  constructor(private readonly timers: Timers) {}

  /** Throws a RangeError naming the field when a value is out of its range (`faultProblem`). */
  add(
    fault: Fault,
    model: string | undefined,
    times: number | undefined,
    source: FaultSource,
    provider?: string,
  ): Rule {
    const problem = faultProblem(times === undefined ? fault : { ...fault, times });
    if (problem) throw new RangeError(`mock hub fault ${fault.type}: ${problem}`);
    const uses = times ?? fault.times ?? (ONCE_BY_DEFAULT.includes(fault.type) ? 1 : undefined);
    // A duration ends a fault even when no request uses it; Infinity leaves that to `times` or `remove()`.
    const ms =
      fault.durationMs ??
      (fault.type === "loading" ? (fault.estimatedTime ?? DEFAULT_ESTIMATED_TIME_S) * 1000 : Infinity);
    const endsAt = ms === Infinity ? undefined : Date.now() + ms;
    const rule = new Rule(fault, model, provider ?? fault.provider, uses, endsAt, source, (removed) => {
      this.rules.splice(this.rules.indexOf(removed), 1);
    });
    this.rules.push(rule);
    if (endsAt !== undefined) void rule.whenRemoved().then(this.timers.after(ms, () => rule.remove()));
    return rule;
  }

  /** The first active rule for `model` (served by the router's `provider`, if any) among `types`, without using it. */
  peek(model: string, types: readonly FaultType[], provider?: string): Rule | undefined {
    return this.rules.find((rule) => types.includes(rule.fault.type) && matches(rule, model, provider));
  }

  use(rule: Rule): Fault {
    rule.hits += 1;
    if (rule.remaining !== undefined) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) rule.remove();
    }
    return rule.fault;
  }

  /** The same registry, telling `onUse` of each fault it applies: one request's view, for its log line. */
  observed(onUse: (fault: Fault) => void): FaultRegistry {
    const view = Object.create(this) as FaultRegistry;
    view.use = (rule) => {
      const fault = this.use(rule);
      onUse(fault);
      return fault;
    };
    return view;
  }

  /** Uses the first matching rule of each type in `types`. */
  takeEach(model: string, types: readonly FaultType[], provider?: string): Fault[] {
    return types.flatMap((type) => {
      const rule = this.peek(model, [type], provider);
      return rule ? [this.use(rule)] : [];
    });
  }

  rulesOf(model: string, source: FaultSource): Rule[] {
    return this.rules.filter((rule) => rule.model === model && rule.source === source);
  }

  clear(source?: FaultSource): void {
    for (const rule of [...this.rules]) if (!source || rule.source === source) rule.remove();
  }
}

/** A rule scoped to a provider applies only to the router's requests that provider serves. */
function matches(rule: Rule, model: string, provider: string | undefined): boolean {
  return (
    rule.active &&
    (rule.model === undefined || rule.model === model) &&
    (rule.provider === undefined || rule.provider === provider)
  );
}

export type { Rule };
