package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV7Test {
  @Test
  void next_fields_followRfc9562() {
    Instant at = Instant.parse("2026-11-22T10:00:00.123Z");
    UUID u = new UuidV7().next(at);
    assertThat(u.version()).isEqualTo(7);
    assertThat(u.variant()).isEqualTo(2);
    assertThat(u.getMostSignificantBits() >>> 16).isEqualTo(at.toEpochMilli());
    assertThat(UuidV7.isV7(u.toString())).isTrue();
    assertThat(UuidV7.isV7(UUID.randomUUID().toString())).isFalse();
  }

  @Test
  void next_sameMillisecondBeyondCounter_staysStrictlyIncreasing() {
    UuidV7 gen = new UuidV7();
    Instant at = Instant.parse("2026-11-22T10:00:00Z");
    String previous = "";
    for (int i = 0; i < 20_000; i++) {
      String next = gen.next(at).toString();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
  }

  @Test
  void next_clockBackwards_staysStrictlyIncreasing() {
    UuidV7 gen = new UuidV7();
    String a = gen.next(Instant.parse("2026-11-22T10:00:01Z")).toString();
    String b = gen.next(Instant.parse("2026-11-22T10:00:00Z")).toString();
    assertThat(b).isGreaterThan(a);
  }
}
