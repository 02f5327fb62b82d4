/**
 * Gettext plural formulas (`n != 1`, `n%10==1 && n%100!=11 ? 0 : …`) come from the server,
 * so they are untrusted text: parsed by a small recursive-descent parser into a tree and
 * evaluated by walking it. Never `eval`/`Function`.
 *
 * Grammar (C precedence, lowest first):
 *   ternary  := or ('?' ternary ':' ternary)?
 *   or       := and ('||' and)*
 *   and      := equality ('&&' equality)*
 *   equality := relation (('==' | '!=') relation)*
 *   relation := additive (('<' | '>' | '<=' | '>=') additive)*
 *   additive := term (('+' | '-') term)*
 *   term     := unary (('*' | '/' | '%') unary)*
 *   unary    := '!' unary | primary
 *   primary  := 'n' | integer | '(' ternary ')'
 */

export class PluralFormulaError extends Error {
  override name = 'PluralFormulaError';
  readonly formula: string;
  readonly position: number;

  constructor(formula: string, position: number, detail: string) {
    super(`plural formula ${JSON.stringify(formula.length > 80 ? `${formula.slice(0, 80)}…` : formula)}: ${detail} at character ${position + 1}`);
    this.formula = formula;
    this.position = position;
  }
}

type BinaryOperator = '||' | '&&' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';

export type PluralExpression =
  | { kind: 'n' }
  | { kind: 'number'; value: number }
  | { kind: 'not'; operand: PluralExpression }
  | { kind: 'binary'; operator: BinaryOperator; left: PluralExpression; right: PluralExpression }
  | { kind: 'ternary'; test: PluralExpression; then: PluralExpression; otherwise: PluralExpression };

interface Token {
  text: string;
  position: number;
}

// Real formulas are under 200 characters; the limits keep a hostile one from costing
// more than a moment (and the parser's recursion far from the stack limit).
const maxLength = 1000;
const maxDepth = 64;

const operators = ['||', '&&', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '(', ')'];

function tokenize(formula: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < formula.length) {
    const char = formula[index] ?? '';
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const digits = /^\d+/.exec(formula.slice(index, index + 20));
    if (digits) {
      tokens.push({ text: digits[0], position: index });
      index += digits[0].length;
      continue;
    }
    if (char === 'n') {
      tokens.push({ text: 'n', position: index });
      index += 1;
      continue;
    }
    const operator = operators.find((candidate) => formula.startsWith(candidate, index));
    if (!operator)
      throw new PluralFormulaError(
        formula,
        index,
        `unexpected ${JSON.stringify(char)} (only n, integers, ?:, || && == != < > <= >= + - * / % ! and parentheses are allowed)`,
      );
    tokens.push({ text: operator, position: index });
    index += operator.length;
  }
  return tokens;
}

/** Accepts the bare expression or the header form `nplurals=3; plural=(…);`. */
function expressionPart(formula: string): string {
  const header = /^\s*nplurals\s*=\s*\d+\s*;\s*plural\s*=([^;]*);?\s*$/.exec(formula);
  return (header?.[1] ?? formula).replace(/;\s*$/, '');
}

export function parsePluralFormula(formula: string): PluralExpression {
  if (formula.length > maxLength) throw new PluralFormulaError(formula, maxLength, `longer than ${maxLength} characters`);
  const source = expressionPart(formula);
  const tokens = tokenize(source);
  let next = 0;
  const peek = () => tokens[next]?.text;
  const position = () => tokens[next]?.position ?? source.length;
  const fail = (detail: string): never => {
    throw new PluralFormulaError(formula, position(), detail);
  };
  const expect = (text: string) => {
    if (peek() !== text) fail(`expected "${text}" but found ${peek() === undefined ? 'the end' : `"${peek()}"`}`);
    next += 1;
  };

  const binaryLevel = (ops: readonly BinaryOperator[], operand: (depth: number) => PluralExpression) => (depth: number) => {
    let left = operand(depth);
    for (let op = peek(); op !== undefined && (ops as readonly string[]).includes(op); op = peek()) {
      next += 1;
      left = { kind: 'binary', operator: op as BinaryOperator, left, right: operand(depth) };
    }
    return left;
  };

  const primary = (depth: number): PluralExpression => {
    if (depth > maxDepth) fail(`nested deeper than ${maxDepth} levels`);
    const token = peek();
    if (token === undefined) return fail('expression ends too early');
    if (token === 'n') {
      next += 1;
      return { kind: 'n' };
    }
    if (/^\d+$/.test(token)) {
      next += 1;
      const value = Number(token);
      if (!Number.isSafeInteger(value)) fail(`number ${token} is too large`);
      return { kind: 'number', value };
    }
    if (token === '(') {
      next += 1;
      const inner = ternary(depth + 1);
      expect(')');
      return inner;
    }
    return fail(`unexpected "${token}"`);
  };
  const unary = (depth: number): PluralExpression => {
    if (peek() === '!') {
      if (depth > maxDepth) fail(`nested deeper than ${maxDepth} levels`);
      next += 1;
      return { kind: 'not', operand: unary(depth + 1) };
    }
    return primary(depth);
  };
  const term = binaryLevel(['*', '/', '%'], unary);
  const additive = binaryLevel(['+', '-'], term);
  const relation = binaryLevel(['<', '>', '<=', '>='], additive);
  const equality = binaryLevel(['==', '!='], relation);
  const and = binaryLevel(['&&'], equality);
  const or = binaryLevel(['||'], and);
  function ternary(depth: number): PluralExpression {
    if (depth > maxDepth) fail(`nested deeper than ${maxDepth} levels`);
    const test = or(depth);
    if (peek() !== '?') return test;
    next += 1;
    const then = ternary(depth + 1);
    expect(':');
    return { kind: 'ternary', test, then, otherwise: ternary(depth + 1) };
  }

  if (tokens.length === 0) fail('formula is empty');
  const tree = ternary(0);
  if (next < tokens.length) fail(`unexpected "${peek()}" after the end of the expression`);
  return tree;
}

/** Evaluates for a count `n` (a non-negative integer, as gettext's unsigned long). */
export function evaluatePlural(tree: PluralExpression, n: number): number {
  switch (tree.kind) {
    case 'n':
      return n;
    case 'number':
      return tree.value;
    case 'not':
      return evaluatePlural(tree.operand, n) === 0 ? 1 : 0;
    case 'ternary':
      return evaluatePlural(tree.test, n) !== 0 ? evaluatePlural(tree.then, n) : evaluatePlural(tree.otherwise, n);
    case 'binary': {
      const left = evaluatePlural(tree.left, n);
      // Short-circuit like C, so `n != 0 && 10 / n` is safe at 0.
      if (tree.operator === '&&') return left !== 0 && evaluatePlural(tree.right, n) !== 0 ? 1 : 0;
      if (tree.operator === '||') return left !== 0 || evaluatePlural(tree.right, n) !== 0 ? 1 : 0;
      const right = evaluatePlural(tree.right, n);
      switch (tree.operator) {
        case '==':
          return left === right ? 1 : 0;
        case '!=':
          return left !== right ? 1 : 0;
        case '<':
          return left < right ? 1 : 0;
        case '>':
          return left > right ? 1 : 0;
        case '<=':
          return left <= right ? 1 : 0;
        case '>=':
          return left >= right ? 1 : 0;
        case '+':
          return left + right;
        case '-':
          return left - right;
        case '*':
          return left * right;
        case '/':
        case '%':
          if (right === 0) throw new RangeError(`division by zero for n = ${n}`);
          return tree.operator === '/' ? Math.trunc(left / right) : left % right;
      }
    }
  }
}

// 0…1000 covers every rule's small cases; the larger ones catch "many" forms that only
// appear at round millions (e.g. some CLDR-derived formulas).
const sampleCounts = [...Array.from({ length: 1001 }, (_, n) => n), 10_000, 100_000, 1_000_000];

/**
 * The first few counts that select each plural form, e.g. Polish → `[[1], [2,3,4,22…], [0,5,6…]]`.
 * A form no sample count reaches gets an empty list; results outside `0…forms-1` are ignored.
 */
export function pluralExamples(formula: string, forms: number, perForm = 6): number[][] {
  const tree = parsePluralFormula(formula);
  const examples: number[][] = Array.from({ length: Math.max(forms, 0) }, () => []);
  for (const n of sampleCounts) {
    let form: number;
    try {
      form = evaluatePlural(tree, n);
    } catch {
      continue;
    }
    const bucket = examples[form];
    if (bucket && bucket.length < perForm) bucket.push(n);
  }
  return examples;
}
