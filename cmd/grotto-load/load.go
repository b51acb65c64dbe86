package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// kind is what a target serves, which decides how to enter play and how to
// see that a key was answered.
type kind int

const (
	kindGrotto kind = iota // name screen, title, then the game's turn counter
	kindTea                // floor (b): a turn counter from the first frame
	kindEcho               // floor (a): the echoed bytes are the answer
)

// target is a server process under load.
type target struct {
	name string
	kind kind
	addr string
	pid  int
	cmd  *exec.Cmd
}

// options is the workload.
type options struct {
	sessions int
	rate     float64       // keys per second per session; 0 holds sessions idle
	duration time.Duration // of the key phase
	idle     time.Duration // of the idle phase, measured before the key phase
	keys     string        // pressed in turn
	dial     int           // sessions connecting at once
}

// result is one target's figures. Times in milliseconds, sizes in bytes.
type result struct {
	Target            string  `json:"target"`
	Sessions          int     `json:"sessions"`
	Failed            int     `json:"failed"`
	HandshakesPerSec  float64 `json:"handshakes_per_sec"`
	FirstFrameBytes   float64 `json:"first_frame_bytes"`
	Keys              int     `json:"keys"`
	LatencyP50        float64 `json:"key_to_frame_p50_ms"`
	LatencyP90        float64 `json:"key_to_frame_p90_ms"`
	LatencyP99        float64 `json:"key_to_frame_p99_ms"`
	LatencyMax        float64 `json:"key_to_frame_max_ms"`
	FirstKeyP99       float64 `json:"first_key_after_idle_p99_ms"`
	FirstByteP50      float64 `json:"key_to_first_byte_p50_ms"`
	FirstByteP99      float64 `json:"key_to_first_byte_p99_ms"`
	BytesPerKey       float64 `json:"bytes_per_key"`
	CPUCores          float64 `json:"server_cpu_s_per_s"`
	CPUPerKeyMs       float64 `json:"server_cpu_ms_per_key"`
	RSSMiB            float64 `json:"server_rss_mib"`
	RSSPerSessionKiB  float64 `json:"rss_per_session_kib"`
	IdleCPUPerSession float64 `json:"idle_cpu_ms_per_s_per_session"`
	TurnsPerSec       float64 `json:"turns_per_sec"`
}

// session is one load-generating client.
type session struct {
	c         *sshtest.Client
	sentAt    atomic.Int64 // unix ns of the key awaiting its first byte, 0 if none
	mu        sync.Mutex
	firstByte []time.Duration // guarded by mu: appended from the client's reader
	answered  chan struct{}   // echo: a byte arrived
	turn      int
}

func turnOf(s string) int { return sshtest.Turn(s) }

// startTarget runs a server process and waits for its port.
func startTarget(name string, k kind, pin bool, argv ...string) (*target, error) {
	if pin {
		if ts, err := exec.LookPath("taskset"); err == nil {
			argv = append([]string{ts, "-c", "0"}, argv...)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &target{name: name, kind: k, addr: argv[len(argv)-1], pid: cmd.Process.Pid, cmd: cmd}
	for _, a := range argv {
		if _, _, err := net.SplitHostPort(a); err == nil && a != "" {
			t.addr = a
		}
	}
	for range 500 {
		if c, err := net.Dial("tcp", t.addr); err == nil {
			c.Close()
			return t, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.stop()
	return nil, fmt.Errorf("%s did not start on %s", name, t.addr)
}

func (t *target) stop() {
	if t.cmd != nil {
		t.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { t.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.cmd.Process.Kill()
		}
	}
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer ln.Close()
	return ln.Addr().String()
}

// connect opens one session and gets it to play, returning the bytes of the
// first play frame.
func connect(t *target, i int) (*session, int64, error) {
	key, err := sshtest.NewKey()
	if err != nil {
		return nil, 0, err
	}
	s := &session{answered: make(chan struct{}, 1)}
	c, err := sshtest.Dial(t.addr, key, sshtest.Options{Width: 80, Height: 24, User: fmt.Sprintf("load%d", i),
		DiscardOutput: true, DialTimeout: 30 * time.Second, OnBytes: func(int) {
			if at := s.sentAt.Swap(0); at != 0 {
				s.mu.Lock()
				s.firstByte = append(s.firstByte, time.Duration(time.Now().UnixNano()-at))
				s.mu.Unlock()
			}
			select {
			case s.answered <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		return nil, 0, err
	}
	s.c = c
	wait := func(text string) error {
		_, err := c.WaitForText(60*time.Second, text)
		return err
	}
	var before int64
	switch t.kind {
	case kindGrotto:
		if err := wait("Choose the name"); err != nil {
			return nil, 0, err
		}
		c.Send("\r")
		if err := wait("New game"); err != nil {
			return nil, 0, err
		}
		before = c.BytesReceived()
		c.Send("n")
		if err := wait("Turn: 0"); err != nil {
			return nil, 0, err
		}
	case kindTea:
		if err := wait("Turn: 0"); err != nil {
			return nil, 0, err
		}
	case kindEcho:
		return s, 0, nil
	}
	return s, c.BytesReceived() - before, nil
}

// percentile returns the p-th percentile (0..1) of sorted durations, in ms.
func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	return float64(d[min(len(d)-1, int(float64(len(d))*p))].Microseconds()) / 1000
}

// run puts the workload on t and measures it.
func run(t *target, o options, log func(string, ...any)) result {
	r := result{Target: t.name, Sessions: o.sessions}
	rss0, _ := rssBytes(t.pid)
	sessions := make([]*session, o.sessions)
	var firstFrame atomic.Int64
	var failed atomic.Int64
	began := time.Now()
	sem := make(chan struct{}, max(1, o.dial))
	var wg sync.WaitGroup
	for i := range sessions {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			s, ff, err := connect(t, i)
			if err != nil {
				failed.Add(1)
				log("%s: session %d: %v", t.name, i, err)
				return
			}
			firstFrame.Add(ff)
			sessions[i] = s
		})
	}
	wg.Wait()
	r.HandshakesPerSec = float64(o.sessions) / time.Since(began).Seconds()
	live := slices.DeleteFunc(slices.Clone(sessions), func(s *session) bool { return s == nil })
	defer func() {
		for _, s := range live {
			s.c.Close()
		}
	}()
	r.Failed = int(failed.Load())
	if len(live) == 0 {
		return r
	}
	r.FirstFrameBytes = float64(firstFrame.Load()) / float64(len(live))
	time.Sleep(time.Second) // let start-up work settle
	rss1, _ := rssBytes(t.pid)
	r.RSSPerSessionKiB = float64(rss1-rss0) / 1024 / float64(len(live))
	r.RSSMiB = float64(rss1) / (1 << 20)
	log("%s: %d sessions open (%d failed) in %v", t.name, len(live), r.Failed, time.Since(began).Round(time.Millisecond))

	if o.idle > 0 {
		m := startCPU(t.pid)
		time.Sleep(o.idle)
		cpu, wall := m.stop()
		r.IdleCPUPerSession = cpu / wall * 1000 / float64(len(live))
		log("%s: idle %v: %.3f cores", t.name, o.idle, cpu/wall)
	}
	if o.rate <= 0 || o.duration <= 0 {
		return r
	}
	for _, s := range live {
		s.turn = turnOf(s.c.Screen())
		s.mu.Lock()
		s.firstByte = nil
		s.mu.Unlock()
	}
	var mu sync.Mutex
	var lat, first []time.Duration
	bytes0 := int64(0)
	for _, s := range live {
		bytes0 += s.c.BytesReceived()
	}
	m := startCPU(t.pid)
	deadline := time.Now().Add(o.duration)
	period := time.Duration(float64(time.Second) / o.rate)
	rng := rand.New(rand.NewPCG(uint64(len(live)), 7))
	offsets := make([]time.Duration, len(live))
	for i := range offsets {
		offsets[i] = time.Duration(rng.Int64N(int64(period))) // staggered, not in lockstep
	}
	for i, s := range live {
		wg.Go(func() {
			time.Sleep(offsets[i])
			for k := 0; time.Now().Before(deadline); k++ {
				next := time.Now().Add(period)
				key := string(o.keys[k%len(o.keys)])
				t0 := time.Now()
				select {
				case <-s.answered:
				default:
				}
				s.sentAt.Store(t0.UnixNano())
				if err := s.c.Send(key); err != nil {
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				var err error
				if t.kind == kindEcho {
					select {
					case <-s.answered:
					case <-ctx.Done():
						err = ctx.Err()
					}
				} else {
					want := s.turn + 1
					var screen string
					screen, err = s.c.WaitFor(ctx, func(screen string) bool {
						return turnOf(screen) >= want || strings.Contains(screen, "You died") || strings.Contains(screen, "You escaped")
					})
					s.turn = want
					if err == nil && turnOf(screen) < want { // the game ended: a monster found this idle player
						cancel()
						return
					}
				}
				cancel()
				if err != nil {
					log("%s: a key went unanswered: %v", t.name, err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				if k == 0 {
					first = append(first, d) // the first key after the idle phase
				}
				mu.Unlock()
				time.Sleep(time.Until(next))
			}
		})
	}
	wg.Wait()
	cpu, wall := m.stop()
	bytes1 := int64(0)
	var fb []time.Duration
	for _, s := range live {
		bytes1 += s.c.BytesReceived()
		s.mu.Lock()
		fb = append(fb, s.firstByte...)
		s.mu.Unlock()
	}
	slices.Sort(lat)
	slices.Sort(fb)
	slices.Sort(first)
	r.FirstKeyP99 = percentile(first, 0.99)
	r.Keys = len(lat)
	r.LatencyP50, r.LatencyP90, r.LatencyP99 = percentile(lat, 0.5), percentile(lat, 0.9), percentile(lat, 0.99)
	r.LatencyMax = percentile(lat, 1)
	r.FirstByteP50, r.FirstByteP99 = percentile(fb, 0.5), percentile(fb, 0.99)
	if r.Keys > 0 {
		r.BytesPerKey = float64(bytes1-bytes0) / float64(r.Keys)
		r.CPUPerKeyMs = cpu * 1000 / float64(r.Keys)
	}
	r.CPUCores = cpu / wall
	r.TurnsPerSec = float64(r.Keys) / min(wall, o.duration.Seconds()+period.Seconds())
	if rss, err := rssBytes(t.pid); err == nil {
		r.RSSMiB = float64(rss) / (1 << 20)
	}
	return r
}
