package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading lines backward finds exactly the lines a forward read finds, last first; the newline
 * search finds the first newline a byte loop finds.
 */
class LineScannerTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void newline_randomBytes_findsTheFirstNewlineAByteLoopFinds(long seed) {
    Random r = new Random(seed);
    for (int n = 0; n < 2_000; n++) {
      byte[] buf = new byte[r.nextInt(40)];
      for (int i = 0; i < buf.length; i++) {
        // newlines, bytes one off it (borrows), zeros, high bytes and plain text
        byte[] kinds = {'\n', '\n', 0x0B, 0x09, 0, (byte) 0x8A, (byte) 0xFF, 'a', 'z', '"'};
        buf[i] = r.nextInt(4) == 0 ? kinds[r.nextInt(kinds.length)] : (byte) r.nextInt(256);
      }
      int from = buf.length == 0 ? 0 : r.nextInt(buf.length + 1);
      int to = from + r.nextInt(buf.length - from + 1);
      int expected = -1;
      for (int i = from; i < to; i++) {
        if (buf[i] == '\n') {
          expected = i;
          break;
        }
      }
      assertThat(LineScanner.newline(buf, from, to))
          .as("seed %d, %s from %d to %d", seed, Arrays.toString(buf), from, to)
          .isEqualTo(expected);
    }
  }

  private record Line(long offset, String text, boolean terminated) {}

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void scanBackward_randomFile_sameLinesAsScanInReverse(long seed) throws Exception {
    Random r = new Random(seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int lines = r.nextInt(60);
    for (int i = 0; i < lines; i++) {
      // short lines, empty ones, and some longer than the 64 KiB read chunk
      int len = r.nextInt(10) == 0 ? 60_000 + r.nextInt(150_000) : r.nextInt(3) == 0 ? 0 : 80;
      byte[] text = new byte[len];
      Arrays.fill(text, (byte) ('a' + r.nextInt(26)));
      out.write(text);
      if (i < lines - 1 || r.nextBoolean()) {
        out.write('\n');
      }
    }
    Path file = dir.resolve("f" + seed);
    Files.write(file, out.toByteArray());

    List<Line> forward = new ArrayList<>();
    LineScanner.scan(
        file,
        (offset, buf, off, len, terminated) ->
            forward.add(new Line(offset, new String(buf, off, len), terminated)));
    List<Line> backward = new ArrayList<>();
    LineScanner.scanBackward(
        file,
        (offset, buf, off, len, terminated) -> {
          backward.add(new Line(offset, new String(buf, off, len), terminated));
          return true;
        });
    Collections.reverse(backward);
    assertThat(backward).as("seed %d", seed).isEqualTo(forward);

    int stopAfter = forward.isEmpty() ? 0 : 1 + r.nextInt(forward.size());
    List<Line> some = new ArrayList<>();
    LineScanner.scanBackward(
        file,
        (offset, buf, off, len, terminated) -> {
          some.add(new Line(offset, new String(buf, off, len), terminated));
          return some.size() < stopAfter;
        });
    Collections.reverse(some);
    assertThat(some).isEqualTo(forward.subList(forward.size() - stopAfter, forward.size()));
  }
}
