package cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProfileTest {
  @Test
  void countsLines() {
    String profile = """
        [default]
        aws_access_key_id = AKIAH5CW9Z\
        T3NQ7RVM2F
        region = eu-north-1
        """;
    assertEquals(3, new Profile().lines(profile));
  }
}
