package dev.brain.server;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Puts the terminal's stderr back on descriptor 2. {@code bin/brain} starts the JVM with stderr
 * through a filter that drops the JVM's start-up notice about incubator modules, and hands over the
 * real stderr as descriptor 3 ({@code BRAIN_STDERR_FD=3}); {@code dup2(3, 2)} then gives brain's
 * own messages the real stderr, so none waits behind the filter when the process ends. The call
 * goes through the foreign function API, final since JDK 22 and reached reflectively because brain
 * compiles for 21; on JDK 21 stderr stays filtered, which only costs ordering at exit.
 */
final class RealStderr {
  private RealStderr() {}

  static void restore() {
    if (!"3".equals(System.getenv("BRAIN_STDERR_FD")) || Runtime.version().feature() < 22) {
      return;
    }
    try {
      MethodHandle dup2 = function("dup2", 2);
      MethodHandle close = function("close", 1);
      if ((int) dup2.invokeWithArguments(3, 2) == 2) {
        close.invokeWithArguments(3);
      }
    } catch (Throwable e) {
      // The filter still carries every byte; only the order at exit may suffer.
    }
  }

  /** A C function {@code int name(int...)} of the standard library, with {@code arity} ints. */
  private static MethodHandle function(String name, int arity) throws ReflectiveOperationException {
    Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
    Class<?> lookupType = Class.forName("java.lang.foreign.SymbolLookup");
    Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Object linker = linkerType.getMethod("nativeLinker").invoke(null);
    Object lookup = linkerType.getMethod("defaultLookup").invoke(linker);
    Optional<?> address =
        (Optional<?>) lookupType.getMethod("find", String.class).invoke(lookup, name);
    Object intLayout =
        Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
    Object args = java.lang.reflect.Array.newInstance(layoutType, arity);
    for (int i = 0; i < arity; i++) {
      java.lang.reflect.Array.set(args, i, intLayout);
    }
    Method of = descriptorType.getMethod("of", layoutType, args.getClass());
    Object descriptor = of.invoke(null, intLayout, args);
    Method downcall =
        linkerType.getMethod("downcallHandle", segmentType, descriptorType, optionType.arrayType());
    return (MethodHandle)
        downcall.invoke(
            linker,
            address.orElseThrow(),
            descriptor,
            java.lang.reflect.Array.newInstance(optionType, 0));
  }
}
