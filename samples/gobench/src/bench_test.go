package pvsample

import (
	"crypto/sha256"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

func BenchmarkSort(b *testing.B) {
	work := float64(sortWork)
	n := int(4096 * work)
	r := rand.New(rand.NewSource(42))
	base := make([]int, n)
	for i := range base {
		base[i] = r.Int()
	}
	v := make([]int, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(v, base)
		sort.Ints(v)
	}
}

func BenchmarkSHA256(b *testing.B) {
	buf := make([]byte, 8192)
	b.SetBytes(int64(len(buf)))
	for i := 0; i < b.N; i++ {
		sha256.Sum256(buf)
	}
}

func BenchmarkBuilder(b *testing.B) {
	for _, size := range []int{16, 256} {
		b.Run("size="+itoa(size), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var sb strings.Builder
				for j := 0; j < size; j++ {
					sb.WriteByte('a')
				}
				_ = sb.String()
			}
		})
	}
}

func BenchmarkMapInsert(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m := make(map[int]int, 64)
		for j := 0; j < 64; j++ {
			m[j] = j
		}
	}
	b.ReportMetric(64, "keys/op")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
