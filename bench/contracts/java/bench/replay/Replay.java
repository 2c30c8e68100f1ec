package bench.replay;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs counterexamples of `tracespec validate` on the JVM: builds the
 * pre-state, calls the method and compares the outcome and the post-state.
 * One case file per argument (format written by bench_contracts.cpp, one
 * directive per line); prints "FILE ok" or "FILE MISMATCH: what differs".
 */
public final class Replay {
  private final Map<String, Object> objects = new HashMap<>();
  private final java.util.Set<String> boxes = new java.util.HashSet<>();

  public static void main(String[] args) throws Exception {
    for (String file : args) {
      String verdict;
      try {
        verdict = new Replay().run(Files.readAllLines(Path.of(file)));
      } catch (Exception e) {
        verdict = "MISMATCH: cannot replay: " + e;
      }
      System.out.println(file + " " + verdict);
    }
  }

  private String run(List<String> lines) throws Exception {
    String className = null;
    String methodName = null;
    String descriptor = null;
    Object receiver = null;
    java.util.ArrayList<Object> arguments = new java.util.ArrayList<>();
    // Pass 1: objects exist before anything refers to them.
    // A box (java.lang.Integer, ...) is built from its value field with its
    // constructor: a distinct object, as the counterexample's may be.
    Map<String, String[]> boxValues = new HashMap<>();
    for (String line : lines) {
      String[] t = line.split(" ");
      if (t[0].equals("field") && t[2].equals("value")) {
        boxValues.put(t[1], t);
      }
    }
    for (String line : lines) {
      String[] t = line.split(" ");
      if (t[0].equals("obj")) {
        Class<?> c = t.length > 3 ? null : Class.forName(t[2]);
        Object o;
        if (c == null) {
          o = Array.newInstance(component(t[2]), Integer.parseInt(t[3]));
        } else if (c.getName().startsWith("java.lang.") && boxValues.containsKey(t[1])) {
          String[] v = boxValues.get(t[1]);
          Object value = value(v[3], v[4]);
          Class<?> primitive = (Class<?>) c.getField("TYPE").get(null);
          o = c.getConstructor(primitive).newInstance(value);
          boxes.add(t[1]);
        } else {
          o = instantiate(c);
        }
        objects.put(t[1], o);
      }
    }
    String expect = null;
    java.util.ArrayList<String[]> post = new java.util.ArrayList<>();
    for (String line : lines) {
      String[] t = line.split(" ");
      switch (t[0]) {
        case "method":
          className = t[1];
          methodName = t[2];
          descriptor = t[3];
          break;
        case "elem":
          Array.set(objects.get(t[1]), Integer.parseInt(t[2]), value(t[3], t[4]));
          break;
        case "field":
          if (!boxes.contains(t[1])) {
            field(objects.get(t[1]), t[2]).set(objects.get(t[1]), value(t[3], t[4]));
          }
          break;
        case "this":
          receiver = objects.get(t[1]);
          break;
        case "arg":
          arguments.add(value(t[1], t[2]));
          break;
        case "return":
        case "throw":
          expect = line;
          break;
        case "post-elem":
        case "post-field":
          post.add(t);
          break;
        default:
          break;
      }
    }
    Method method = find(Class.forName(className), methodName, descriptor);
    method.setAccessible(true);
    String got;
    try {
      Object result = method.invoke(receiver, arguments.toArray());
      String type = descriptor.substring(descriptor.indexOf(')') + 1);
      got = type.equals("V") ? "return V -"
          : type.startsWith("L") || type.startsWith("[") ? "return R -"
          : "return " + type + " " + encode(type, result);
    } catch (InvocationTargetException e) {
      got = "throw " + e.getCause().getClass().getName();
    }
    if (!got.equals(expect)) {
      return "MISMATCH: expected '" + expect + "', the JVM gives '" + got + "'";
    }
    for (String[] t : post) {
      if (!objects.containsKey(t[1]) || boxes.contains(t[1])) {
        continue;  // an object the call created (its result), or an immutable box
      }
      Object actual = t[0].equals("post-elem")
          ? Array.get(objects.get(t[1]), Integer.parseInt(t[2]))
          : field(objects.get(t[1]), t[2]).get(objects.get(t[1]));
      String encoded = t[3].equals("ref") || t[3].equals("null") ? t[3] : encode(t[3], actual);
      boolean same = t[3].equals("ref") || encoded.equals(t[4])
          || (t[3].equals("null") && actual == null);
      if (!same) {
        return "MISMATCH: post-state " + String.join(" ", t) + ", the JVM gives " + encoded;
      }
    }
    return "ok";
  }

  private static Object instantiate(Class<?> c) throws Exception {
    Constructor<?> best = null;
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      if (best == null || k.getParameterCount() < best.getParameterCount()) {
        best = k;
      }
    }
    Object[] defaults = new Object[best.getParameterCount()];
    Class<?>[] types = best.getParameterTypes();
    for (int i = 0; i < types.length; i++) {
      defaults[i] = types[i].isPrimitive() ? Array.get(Array.newInstance(types[i], 1), 0) : null;
    }
    best.setAccessible(true);
    return best.newInstance(defaults);
  }

  private static Field field(Object o, String name) throws Exception {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }

  private static Method find(Class<?> c, String name, String descriptor) throws Exception {
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals(name) && descriptor.startsWith(parameters(m.getParameterTypes()))) {
        return m;
      }
    }
    throw new NoSuchMethodException(name + descriptor);
  }

  private static String parameters(Class<?>[] types) {
    StringBuilder b = new StringBuilder("(");
    for (Class<?> t : types) {
      b.append(t.isArray() ? t.getName().replace('.', '/')
               : t.isPrimitive() ? Array.newInstance(t, 0).getClass().getName().substring(1)
               : "L" + t.getName().replace('.', '/') + ";");
    }
    return b.append(")").toString();
  }

  private static Class<?> component(String arrayClass) throws Exception {
    return Class.forName(arrayClass).getComponentType();
  }

  private Object value(String kind, String text) {
    switch (kind) {
      case "Z": return text.equals("1");
      case "B": return (byte) Integer.parseInt(text);
      case "S": return (short) Integer.parseInt(text);
      case "C": return (char) Integer.parseInt(text);
      case "I": return Integer.parseInt(text);
      case "J": return Long.parseLong(text);
      case "F": return Float.intBitsToFloat(Integer.parseInt(text));
      case "D": return Double.longBitsToDouble(Long.parseLong(text));
      case "ref": return objects.get(text);
      default: return null;
    }
  }

  private static String encode(String kind, Object v) {
    switch (kind) {
      case "Z": return ((Boolean) v) ? "1" : "0";
      case "C": return Integer.toString((Character) v);
      case "F": {
        float f = (Float) v;
        return Integer.toString(Float.isNaN(f) ? 0x7fc00000 : Float.floatToIntBits(f));
      }
      case "D": {
        double d = (Double) v;
        return Long.toString(Double.isNaN(d) ? 0x7ff8000000000000L : Double.doubleToLongBits(d));
      }
      default: return String.valueOf(v);
    }
  }
}
