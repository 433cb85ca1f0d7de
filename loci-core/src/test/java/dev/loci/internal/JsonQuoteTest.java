package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Locale;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Json.appendQuoted against Jackson, and Timestamps format/parse over the whole Instant range. */
class JsonQuoteTest {
  static LongStream seeds() {
    Random r = new Random(Long.getLong("loci.test.seed", 20261122L));
    return LongStream.generate(() -> r.nextLong() & Long.MAX_VALUE).limit(5);
  }

  @Test
  void quote_everyNonSurrogateChar_parsesBackLikeJacksonsOutput() throws Exception {
    for (char c = 0; c < 0xFFFF; c++) {
      if (Character.isSurrogate(c)) {
        continue;
      }
      String s = "a" + c + "b";
      String quoted = Json.quote(s);
      assertThat(Json.MAPPER.readValue(quoted, String.class)).as("char %04x", (int) c).isEqualTo(s);
      assertThat(Json.MAPPER.readTree(quoted))
          .as("char %04x", (int) c)
          .isEqualTo(Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(s)));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void quote_randomStrings_sameMeaningAsJackson(long seed) throws Exception {
    Random r = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = r.nextInt(20); k > 0; k--) {
        int cp = r.nextInt(4) == 0 ? r.nextInt(0x80) : r.nextInt(0x110000);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
          continue;
        }
        sb.appendCodePoint(cp);
      }
      String s = sb.toString();
      // same meaning; the bytes differ only in the case of the hex digits of escapes
      assertThat(Json.MAPPER.readValue(Json.quote(s), String.class))
          .as("seed %d", seed)
          .isEqualTo(s);
      assertThat(Json.quote(s).toLowerCase(Locale.ROOT))
          .as("seed %d", seed)
          .isEqualTo(Json.MAPPER.writeValueAsString(s).toLowerCase(Locale.ROOT));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void timestamps_randomInstants_formatThenParseRoundTrips(long seed) {
    Random r = new Random(seed);
    long min = Instant.MIN.getEpochSecond();
    long max = Instant.MAX.getEpochSecond();
    for (int i = 0; i < 20_000; i++) {
      long sec =
          switch (r.nextInt(3)) {
            case 0 -> min + (long) (r.nextDouble() * ((double) max - min));
            case 1 -> r.nextLong() % 400_000_000_000L; // years -10700 to 14600
            default -> r.nextLong() % 10_000_000_000L; // around 1970
          };
      int nano =
          switch (r.nextInt(3)) {
            case 0 -> 0;
            case 1 -> r.nextInt(1_000_000) * 1000;
            default -> r.nextInt(1_000_000_000);
          };
      Instant t = Instant.ofEpochSecond(sec, nano);
      String text = Timestamps.format(t);
      assertThat(Timestamps.parse(text)).as("seed %d: %s as %s", seed, t, text).isEqualTo(t);
      assertThat(Instant.parse(text)).as("seed %d: %s as %s", seed, t, text).isEqualTo(t);
    }
  }
}
