package dev.loci.internal;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * Generates RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then random bits. Within one
 * generator, ids are strictly increasing even when many are made in the same millisecond: the
 * 12-bit {@code rand_a} field is a counter seeded at random each millisecond, and when it overflows
 * the timestamp field is advanced by one (method 1 and 3 of RFC 9562 section 6.2).
 *
 * <p>Thread-safe.
 */
public final class UuidV7 {
  private final SecureRandom random = drbg();
  private long lastMillis = -1;
  private int counter;

  /**
   * An in-process DRBG: cryptographically strong like the platform default, but it does not read
   * the operating system's random device on every call, as NativePRNG does.
   */
  private static SecureRandom drbg() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (java.security.NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }

  /** Returns a new id whose timestamp is {@code at}, or later if needed to stay increasing. */
  public synchronized UUID next(Instant at) {
    long millis = at.toEpochMilli();
    if (millis > lastMillis) {
      lastMillis = millis;
      counter = random.nextInt(1 << 11); // leave headroom before the 12-bit field overflows
    } else {
      counter++;
      if (counter >= 1 << 12) {
        lastMillis++;
        counter = random.nextInt(1 << 11);
      }
    }
    long msb = (lastMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | counter;
    long lsb = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }

  /** Returns true if {@code text} is a lower-case UUID string of version 7. */
  public static boolean isV7(String text) {
    try {
      UUID u = UUID.fromString(text);
      return u.version() == 7 && u.variant() == 2 && u.toString().equals(text);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
