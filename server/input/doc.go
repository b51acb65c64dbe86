// Package input is the input defence of a session: the bytes a client
// types, bounded in rate, checked by a sanitizer that passes on only
// complete, bounded escape sequences (sanitize.go), and decoded by
// ultraviolet's EventDecoder under recover (scan.go) before each event reaches the
// session's Bubble Tea program with Program.Send (input.go says which
// upstream faults make this necessary). It holds no server state: a
// Keyboard is made from the client's reader, its TERM, its byte rate, a
// logger and a key clock, and gives the program its input through Option
// and Start. Bubble Tea then reads no input of its own, so the keyboard
// also does what Bubble Tea did for its input, through Terminal around
// the program's output (terminal.go): it asks the terminal its questions
// in front of the first frame (input.go, queries), asks for the keyboard
// enhancements on the alternate screen and undoes them before leaving it.
package input
