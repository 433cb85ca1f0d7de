package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenFilterTest {
  private static boolean holds(TokenFilter f, String line) {
    byte[] b = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    return f.mayHold(b, 2, b.length - 4);
  }

  @Test
  void matchesAWholeJsonStringOnly() {
    TokenFilter f = TokenFilter.of(Set.of("01a2-abc", "n7"));
    assertThat(holds(f, "{\"uid\":\"01a2-abc\",\"x\":1}")).isTrue();
    assertThat(holds(f, "{\"members\":[\"q\",\"n7\"]}")).isTrue();
    assertThat(holds(f, "{\"uid\":\"01a2-abcd\"}")).as("a longer string").isFalse();
    assertThat(holds(f, "{\"uid\":\"x01a2-abc\"}")).as("a suffix").isFalse();
    assertThat(holds(f, "{\"content\":\"say \\\"n7\\\" twice\"}"))
        .as("inside an escaped string: not a whole string value")
        .isFalse();
    assertThat(holds(f, "{\"a\":\"\\\\\",\"uid\":\"n7\"}"))
        .as("after an escaped backslash")
        .isTrue();
  }

  @Test
  void tokensJsonWouldEscape_orNone_letEveryLineThrough() {
    assertThat(holds(TokenFilter.of(Set.of()), "{}")).isTrue();
    assertThat(holds(TokenFilter.of(Set.of("a\"b")), "{}")).isTrue();
    assertThat(holds(TokenFilter.of(Set.of("naïve")), "{}")).isTrue();
  }
}
