// Package sshtest is a real SSH client that sees what a player would see: it
// dials a server with public-key auth, opens a PTY session and plays the
// session's output into the vt terminal emulator, answering the program's
// terminal queries as a terminal would. End-to-end tests use it through
// [New]; a load generator can use [Dial] directly, since nothing but [New]
// needs a testing.TB.
//
//	c := sshtest.New(t, addr, sshtest.Options{Width: 100, Height: 30})
//	c.WaitForText(5*time.Second, "count: 0")
//	c.Send("j")
//	screen, err := c.WaitForText(5*time.Second, "count: 1")
package sshtest
