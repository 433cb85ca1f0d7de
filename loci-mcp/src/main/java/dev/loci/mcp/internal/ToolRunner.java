package dev.loci.mcp.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.ConflictException;
import dev.loci.EgressRefusedException;
import dev.loci.InvalidRequestException;
import dev.loci.LimitExceededException;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.mcp.McpCaller;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs tool calls: checks the caller's role, runs the handler, and translates every failure, once,
 * into a tool error ({@code isError} with a stable type, the argument at fault and a detail), so a
 * bad call never ends the session. Thread-safe.
 */
public final class ToolRunner {
  private static final Logger LOG = Logger.getLogger(ToolRunner.class.getName());

  private ToolRunner() {}

  /** Runs {@code spec} for {@code caller} with {@code arguments}. */
  public static McpSchema.CallToolResult run(
      ToolSpec spec, McpCaller caller, Map<String, Object> arguments, Namespace defaultNs) {
    try {
      Call call = new Call(caller, Args.of(arguments), defaultNs);
      call.require(spec.role(), spec.name());
      Reply reply = spec.handler().handle(call);
      return McpSchema.CallToolResult.builder()
          .content(List.of(new McpSchema.TextContent(reply.text())))
          .structuredContent(reply.structured())
          .isError(false)
          .build();
    } catch (ToolError e) {
      return error(spec, e.type(), e.field(), e.getMessage());
    } catch (LimitExceededException e) {
      return error(spec, "limit-exceeded", Optional.of(e.field()), e.getMessage());
    } catch (InvalidRequestException e) {
      return error(spec, "invalid-argument", Optional.of(e.field()), e.getMessage());
    } catch (NotFoundException e) {
      return error(spec, "not-found", Optional.of(e.field()), e.getMessage());
    } catch (ConflictException e) {
      return error(spec, "conflict", Optional.empty(), e.getMessage());
    } catch (EgressRefusedException e) {
      return error(spec, "egress-refused", Optional.empty(), e.getMessage());
    } catch (LociException e) {
      return error(spec, "failed", Optional.empty(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "tool " + spec.name() + " failed", e);
      return error(
          spec, "internal", Optional.empty(), spec.name() + " failed: " + e.getClass().getName());
    }
  }

  /**
   * A tool error. Tools that declare an output schema (the reference memory server's) carry only
   * the text, as that server does; the others also carry {@code {"error": {type, field, detail}}}.
   */
  private static McpSchema.CallToolResult error(
      ToolSpec spec, String type, Optional<String> field, String detail) {
    McpSchema.CallToolResult.Builder b =
        McpSchema.CallToolResult.builder()
            .content(List.of(new McpSchema.TextContent(detail)))
            .isError(true);
    if (spec.outputSchema().isEmpty()) {
      ObjectNode error = McpJson.object();
      ObjectNode e = error.putObject("error");
      e.put("type", type);
      field.ifPresent(f -> e.put("field", f));
      e.put("detail", detail);
      b.structuredContent(error);
    }
    return b.build();
  }
}
