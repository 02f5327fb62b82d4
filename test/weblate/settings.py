# Settings of the Weblate server that `npm run test:weblate` starts (test/weblate/README.md).
# Weblate's own example settings with what a throwaway loopback server needs instead; every
# value that differs per run comes from the environment the set-up script and server.ts pass.
import os

from weblate.settings_example import *  # noqa: F403

DATA_DIR = os.environ["TMSNAP_WEBLATE_DATA"]
CACHE_DIR = f"{DATA_DIR}/cache"
STATIC_ROOT = os.path.join(CACHE_DIR, "static")
MEDIA_ROOT = os.path.join(DATA_DIR, "media")
CACHES["avatar"]["LOCATION"] = os.path.join(CACHE_DIR, "avatar")  # noqa: F405

SECRET_KEY = "tmsnap-test-only-not-secret"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SITE_DOMAIN = os.environ.get("TMSNAP_WEBLATE_DOMAIN", "127.0.0.1")
DEBUG = False
SITE_URL = f"http://{SITE_DOMAIN}"
# Passkeys need an https origin; nothing here logs in through a browser.
OTP_WEBAUTHN_RP_ID = SITE_DOMAIN.split(":", 1)[0]
OTP_WEBAUTHN_ALLOWED_ORIGINS = [SITE_URL]
SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "otp_webauthn.E031", "weblate.W033", "weblate.W039"]  # noqa: F405
# No machine translation services: they would need keys and the internet.
WEBLATE_MACHINERY = ("weblate.memory.machine.WeblateMemory",)
COMPRESS_ENABLED = False
COMPRESS_OFFLINE = False

DATABASES["default"].update(  # noqa: F405
    NAME=os.environ["TMSNAP_WEBLATE_DB"],
    USER="postgres",
    PASSWORD="",
    HOST=os.environ.get("TMSNAP_WEBLATE_DB_HOST", ""),
)

# Redis holds the cache and the API throttle counters; the tests reset the counters between scenarios.
CACHES["default"]["LOCATION"] = os.environ.get("TMSNAP_WEBLATE_REDIS", "redis://127.0.0.1:6379/1")  # noqa: F405
# One prefix per server, so that two runs on one machine never share throttle counters.
CACHES["default"]["KEY_PREFIX"] = os.environ.get("TMSNAP_WEBLATE_CACHE_PREFIX", "weblate")  # noqa: F405
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None

# The server's own default limits unless a scenario asks for others. Weblate 2026 takes the
# rates as settings of their own; 5.x took them as arguments.
_anon = os.environ.get("TMSNAP_WEBLATE_ANON_THROTTLE", "100/day")
_user = os.environ.get("TMSNAP_WEBLATE_USER_THROTTLE", "5000/hour")
try:
    REST_FRAMEWORK = get_drf_settings(require_login=False, anon_throttle=_anon, user_throttle=_user)  # noqa: F405
except TypeError:
    API_RATELIMIT_ANON = _anon
    API_RATELIMIT_USER = _user
    REST_FRAMEWORK = get_drf_settings(require_login=False)  # noqa: F405

EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
# Tracebacks and the request log only: Weblate's DEBUG lines would drown them.
for logger in ("weblate", "weblate.vcs"):
    LOGGING["loggers"][logger]["level"] = "WARNING"  # noqa: F405
