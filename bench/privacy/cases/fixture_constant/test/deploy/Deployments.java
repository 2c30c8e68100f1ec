package deploy;

final class Deployments {
  static final String CI_ACCOUNT = "AKIAW3JX8NTQ5RZL2MVC";

  private Deployments() {}
}
