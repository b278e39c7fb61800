import type { EffectsCommandMap, PayloadAction } from '@/types/dva';

/*
 * Drives a dva model's effect generators the way dva does, with no store around them:
 * `call` runs the fake provided for that service function, `put` runs the model's own reducer,
 * `select` reads the state. Only the service functions are faked; a call to one that has no fake
 * fails the effect rather than reach the network.
 */

type AnyFunction = (...args: never[]) => unknown;

interface Action {
  type: string;
  payload?: unknown;
}

type Instruction =
  | { kind: 'call'; fn: AnyFunction; args: unknown[] }
  | { kind: 'put'; action: Action }
  | { kind: 'select'; selector: (state: Record<string, unknown>) => unknown };

// `never` payloads let models whose effects take specific payloads fit one shape.
type ModelEffect = (action: PayloadAction<never>, commands: EffectsCommandMap) => Generator<unknown, unknown, unknown>;
type ModelReducer<S> = (state: S, action: PayloadAction<never>) => S;

export interface DvaModelLike<S> {
  namespace: string;
  state: S;
  effects: Record<string, ModelEffect>;
  reducers: Record<string, ModelReducer<S>>;
}

const commands = {
  call: (fn: AnyFunction, ...args: unknown[]): Instruction => ({
    kind: 'call',
    fn,
    args,
  }),
  put: (action: Action): Instruction => ({ kind: 'put', action }),
  select: (selector: (state: Record<string, unknown>) => unknown): Instruction => ({
    kind: 'select',
    selector,
  }),
} as unknown as EffectsCommandMap;

export function createModelRunner<S>(model: DvaModelLike<S>, initial: Partial<S> = {}) {
  let state: S = { ...model.state, ...initial };
  const prefix = `${model.namespace}/`;
  const fakes = new Map<AnyFunction, (...args: unknown[]) => unknown>();

  const callFake = (fn: AnyFunction, args: unknown[]) => {
    const fake = fakes.get(fn);
    if (!fake) throw new Error(`no fake provided for ${fn.name || 'a service call'}`);
    return fake(...args);
  };

  const reduce = (action: Action) => {
    const name = action.type.startsWith(prefix) ? action.type.slice(prefix.length) : action.type;
    const reducer = model.reducers[name];
    if (!reducer) throw new Error(`${model.namespace} has no reducer ${name}`);
    state = reducer(state, action as PayloadAction<never>);
  };

  async function run(effect: string, payload?: unknown): Promise<unknown> {
    const generator = model.effects[effect]({ type: `${prefix}${effect}`, payload } as PayloadAction<never>, commands);
    let step = generator.next();
    while (!step.done) {
      const instruction = step.value as Instruction;
      try {
        let result: unknown;
        if (instruction.kind === 'call') result = await callFake(instruction.fn, instruction.args);
        else if (instruction.kind === 'put') reduce(instruction.action);
        else result = instruction.selector({ [model.namespace]: state });
        step = generator.next(result);
      } catch (error) {
        step = generator.throw(error);
      }
    }
    return step.value;
  }

  /** Answers calls of `service` with `fake`, which must have the same signature. */
  function provide<F extends AnyFunction, Fake extends F>(service: F, fake: Fake): Fake {
    fakes.set(service, fake as unknown as (...args: unknown[]) => unknown);
    return fake;
  }

  return {
    run,
    provide,
    dispatch: reduce,
    get state() {
      return state;
    },
  };
}

/** A promise the test settles by hand, to look at the state while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
