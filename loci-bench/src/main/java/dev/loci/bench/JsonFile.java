package dev.loci.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** How the quality benchmarks read their input files and write their JSON reports. */
final class JsonFile {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonFile() {}

  /**
   * The JSON tree of {@code file}.
   *
   * @throws IllegalArgumentException naming the file if it is not JSON
   * @throws UncheckedIOException if it cannot be read
   */
  static JsonNode read(Path file) {
    try {
      JsonNode root = MAPPER.readTree(Files.readString(file));
      if (root == null) {
        throw new IllegalArgumentException(file + " is empty, expected JSON");
      }
      return root;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value} (maps, lists, strings, numbers, JSON trees) as indented JSON and a newline. */
  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the report as JSON", e);
    }
  }

  /** Parses JSON text made by this program. */
  static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
  }
}
