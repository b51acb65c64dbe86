package cluster_test

import "math/rand/v2"

// newRand returns a seeded source of bytes, so garbage is the same each run.
func newRand(seed [32]byte) *rand.ChaCha8 { return rand.NewChaCha8(seed) }
