/** Each test starts with no health remembered: a breaker opened by one test's failures is not the next test's. */
import { beforeEach } from "vitest";
import { type HealthMemory, healthMemory } from "../src/features/health";

beforeEach(() => (healthMemory as HealthMemory).clear());
