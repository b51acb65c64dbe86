package main

// The two floors the load generator measures grotto against, each run as
// its own process (this binary re-executed with a hidden subcommand):
//   (a) floor-echo: a bare golang.org/x/crypto/ssh server that echoes every
//       keystroke: what SSH itself costs;
//   (b) floor-tea: a wish + Bubble Tea server, same library versions as
//       grotto, drawing a game-sized screen of coloured glyphs with a moving
//       @ and a turn counter: what the libraries cost.

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// hostSigner is a fresh ed25519 host key for a floor.
func hostSigner() (gossh.Signer, error) { return sshtest.NewKey() }

// serveEcho is floor (a).
func serveEcho(addr string) error {
	signer, err := hostSigner()
	if err != nil {
		return err
	}
	cfg := &gossh.ServerConfig{PublicKeyCallback: func(gossh.ConnMetadata, gossh.PublicKey) (*gossh.Permissions, error) { return nil, nil }}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	for {
		nc, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			_, chans, reqs, err := gossh.NewServerConn(nc, cfg)
			if err != nil {
				nc.Close()
				return
			}
			go gossh.DiscardRequests(reqs)
			for nch := range chans {
				if nch.ChannelType() != "session" {
					nch.Reject(gossh.UnknownChannelType, "no")
					continue
				}
				ch, creqs, err := nch.Accept()
				if err != nil {
					continue
				}
				go func() {
					for r := range creqs {
						r.Reply(r.Type == "pty-req" || r.Type == "shell" || r.Type == "window-change", nil)
					}
				}()
				go func() { io.Copy(ch, ch); ch.Close() }()
			}
		}()
	}
}

// teaModel is floor (b)'s program: a fixed coloured map, a moving @, and a
// status line with a turn counter, redrawn on every key.
type teaModel struct {
	w, h  int
	x, y  int
	turn  int
	cells []string // one pre-styled glyph per map cell, 80 x 43
}

func newTeaModel() *teaModel {
	r := rand.New(rand.NewPCG(1, 2))
	m := &teaModel{w: 80, h: 24, x: 40, y: 10}
	glyphs := []string{".", "#", ".", ".", "~", ";"}
	for range 80 * 43 {
		g := glyphs[r.IntN(len(glyphs))]
		m.cells = append(m.cells, fmt.Sprintf("\x1b[38;2;%d;%d;%dm%s", 60+r.IntN(180), 60+r.IntN(180), 60+r.IntN(180), g))
	}
	return m
}

func (m *teaModel) Init() tea.Cmd { return nil }

func (m *teaModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c", "q":
			return m, tea.Quit
		case "h":
			m.x = max(0, m.x-1)
		case "l":
			m.x = min(79, m.x+1)
		case "k":
			m.y = max(0, m.y-1)
		case "j":
			m.y = min(42, m.y+1)
		}
		m.turn++
	}
	return m, nil
}

func (m *teaModel) View() tea.View {
	var b strings.Builder
	rows := max(1, m.h-6)
	top := max(0, min(m.y-rows/2, 43-rows))
	for y := top; y < top+rows && y < 43; y++ {
		for x := 0; x < 80 && x < m.w; x++ {
			if x == m.x && y == m.y {
				b.WriteString("\x1b[1;37m@\x1b[m")
				continue
			}
			b.WriteString(m.cells[y*80+x])
		}
		b.WriteString("\x1b[m\n")
	}
	fmt.Fprintf(&b, "HP: 30/30  Depth: 1  Turn: %d  Kills: 0\n", m.turn)
	b.WriteString("Hello, adventurer, and welcome to the floor!\n\n\n")
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

// serveTea is floor (b).
func serveTea(addr string) error {
	signer, err := hostSigner()
	if err != nil {
		return err
	}
	srv, err := wish.NewServer(
		wish.WithAddress(addr),
		func(s *ssh.Server) error { s.AddHostKey(signer); return nil },
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithMiddleware(bubbletea.Middleware(func(ssh.Session) (tea.Model, []tea.ProgramOption) {
			return newTeaModel(), []tea.ProgramOption{tea.WithoutSignalHandler()}
		})),
	)
	if err != nil {
		return err
	}
	return srv.ListenAndServe()
}
