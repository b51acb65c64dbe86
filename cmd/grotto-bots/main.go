// Command grotto-bots plays grotto headless with the bots of game/bot and
// prints the balance report (docs/balance.md): per policy the win rate, deaths by
// depth and by cause, depth reached, turns per depth, items used and left,
// score, and time per game; then the "Measured" section (the share
// of deaths of the worst monster, deaths and meetings by monster behaviour,
// items and level-up choices in wins and losses, the variety of the first
// levels between seeds, a game's median length in turns and in a person's
// minutes, and the comparisons of bot.Comparisons). Games run in parallel over GOMAXPROCS
// goroutines; each game is pure and its result depends only on its seed.
//
//	go run ./cmd/grotto-bots --seeds 500
//	go run ./cmd/grotto-bots --seeds 50 --policies careful,diver --json
//
// It exits with status 1 when any game broke an invariant (a panic, HP above
// max, the player on a wall, the game over without death or victory, a
// journal that does not replay to the same game), and 2 on bad flags.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and outputs, returning the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grotto-bots", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var names []string
	for _, p := range bot.Policies() {
		names = append(names, p.Name)
	}
	seeds := fs.Int("seeds", 100, "games per policy, seeds first..first+N-1")
	first := fs.Uint64("first", 1, "first seed")
	list := fs.String("policies", strings.Join(names, ","), "comma-separated policies to run")
	jsonOut := fs.Bool("json", false, "print the summaries as JSON instead of Markdown")
	replay := fs.Int("replay", 5, "games per policy whose journal is replayed fully and compared byte for byte")
	turnCap := fs.Int("turns", bot.DefaultTurnCap, "turn cap per game; games still going are counted as capped")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *seeds < 1 || *workers < 1 || *turnCap < 1 || *replay < 0 {
		fmt.Fprintln(stderr, "grotto-bots: --seeds, --workers and --turns must be at least 1, --replay at least 0, and no arguments")
		return 2
	}
	var policies []bot.Policy
	for _, n := range strings.Split(*list, ",") {
		p, ok := bot.PolicyByName(strings.TrimSpace(n))
		if !ok {
			fmt.Fprintf(stderr, "grotto-bots: unknown policy %q (known: %s)\n", n, strings.Join(names, ", "))
			return 2
		}
		policies = append(policies, p)
	}
	data, err := game.LoadData()
	if err != nil {
		fmt.Fprintln(stderr, "grotto-bots:", err)
		return 1
	}

	start := time.Now()
	outs := make([][]bot.Outcome, len(policies))
	type job struct{ p, i int }
	jobs := make(chan job)
	var wg sync.WaitGroup
	for pi := range policies {
		outs[pi] = make([]bot.Outcome, *seeds)
	}
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				t0 := time.Now()
				o := bot.Play(*first+uint64(j.i), data, policies[j.p], bot.Options{TurnCap: *turnCap, Replay: j.i < *replay})
				o.ElapsedMS = float64(time.Since(t0).Microseconds()) / 1000
				o.Journal = nil // the report does not need it; keep memory flat over many games
				outs[j.p][j.i] = o
			}
		}()
	}
	for i := range *seeds {
		for pi := range policies {
			jobs <- job{pi, i}
		}
	}
	close(jobs)
	wg.Wait()
	wall := time.Since(start)

	var sums []bot.Summary
	var measured []bot.Measured
	broken := 0
	for pi, p := range policies {
		s := bot.Summarize(p.Name, p.Doc, outs[pi])
		m := bot.Measure(data, p.Name, outs[pi])
		s.Measured = &m
		measured = append(measured, m)
		sums = append(sums, s)
		broken += s.Violations
		for _, o := range outs[pi] {
			for _, v := range o.Violations {
				fmt.Fprintf(stderr, "invariant broken: %s: %s\n", p.Name, v)
			}
		}
	}
	if *jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sums); err != nil {
			fmt.Fprintln(stderr, "grotto-bots:", err)
			return 1
		}
	} else {
		fmt.Fprintf(stdout, "%d seeds per policy (%d..%d), turn cap %d, %d workers, %s wall time; %d games replayed per policy.\n\n",
			*seeds, *first, *first+uint64(*seeds)-1, *turnCap, *workers, wall.Round(time.Second), min(*replay, *seeds))
		fmt.Fprint(stdout, bot.Markdown(sums))
		fmt.Fprintln(stdout, "\nPolicies:")
		for _, s := range sums {
			fmt.Fprintf(stdout, "- %s: %s\n", s.Policy, s.Doc)
		}
		fmt.Fprintf(stdout, "\n## Measured: the game's targets\n\n%s", bot.MeasuredMarkdown(measured))
	}
	if broken > 0 {
		fmt.Fprintf(stderr, "grotto-bots: %d invariants broken\n", broken)
		return 1
	}
	return 0
}
