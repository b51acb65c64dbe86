package cast

import (
	"context"
	"io"
	"testing"

	"github.com/grotto-game/grotto/game/bot"
)

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)

// BenchmarkCastOfALongGame: the recording of a long game (the careful
// bot's seed 3, thousands of commands) at 80x24 and at 120x50; it reports
// the commands replayed and the recording's size.
func BenchmarkCastOfALongGame(b *testing.B) {
	g, _ := finishedGame(b, 3, bot.Careful("careful", bot.AllItems()))
	for _, size := range []struct {
		name string
		o    Options
	}{{"80x24", Options{Width: 80, Height: 24}}, {"120x50", Options{Width: 120, Height: 50}}} {
		b.Run(size.name, func(b *testing.B) {
			var w countingWriter
			for b.Loop() {
				g.Replay.Replay.Seek(0)
				w = countingWriter{}
				if err := Write(context.Background(), &w, g, size.o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.Replay.Replay.Len()), "commands")
			b.ReportMetric(float64(w.n), "cast-bytes")
		})
	}
}
