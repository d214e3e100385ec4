//go:build slowdown

package pvsample

const sortWork = 1.2
