//go:build !slowdown

package pvsample

// sortWork scales the work of BenchmarkSort; the candidate build
// (-tags slowdown) uses 1.2, i.e. 20% more elements to sort.
const sortWork = 1.0
