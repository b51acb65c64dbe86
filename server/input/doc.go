// Package input is the input defence of a session: the bytes a client
// types, bounded in rate, checked by a sanitizer that passes on only
// complete, bounded escape sequences (sanitize.go), and decoded by
// ultraviolet's TerminalReader under recover before each event reaches the
// session's Bubble Tea program with Program.Send (input.go says which
// upstream faults make this necessary). It holds no server state: a
// Keyboard is made from the client's reader, its TERM, its byte rate, a
// logger and a key clock, and gives the program its input through Option.
package input
