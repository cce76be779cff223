// A tiny module for the agent demo: `npm run demo` asks the agent to extend it.
export function greet(name) {
  return `Hello, ${name}!`;
}
