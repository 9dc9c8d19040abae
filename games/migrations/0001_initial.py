import datetime
import django.db.models.deletion
import django.utils.timezone
import games.catalog
import games.engines.fair_deals
import games.models.people
import games.models.tables
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("games", "0001_tables"),
        ("games", "0002_moderation"),
        ("games", "0003_bots_and_timers"),
        ("games", "0004_history"),
        ("games", "0005_presence_servers"),
        ("games", "0006_last_move"),
        ("games", "0007_username_skeleton"),
        ("games", "0008_game_choices_from_the_catalog"),
        ("games", "0009_deal_pause_quick_tables_timeouts"),
        ("games", "0010_matchplayer_joined_version"),
        ("games", "0011_profile_language"),
        ("games", "0012_verbose_names"),
        ("games", "0013_fair_deals"),
        ("games", "0014_deal_reviews"),
        ("games", "0015_one_secret_one_match"),
        ("games", "0016_chat_notices"),
        ("games", "0017_reading_the_rules"),
        ("games", "0018_friends_and_invitations"),
        ("games", "0019_invitations_by_email"),
        ("games", "0020_clubs"),
        ("games", "0021_duplicate_events"),
        ("games", "0022_club_invite_links"),
        ("games", "0023_expert_seats_to_hard"),
        ("games", "0024_reading_per_turn"),
        ("games", "0025_club_name_skeleton"),
        ("games", "0026_confirmed_email"),
        ("games", "0027_event_kept_results"),
    ]

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Match',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='number')),
                ('game', models.CharField(choices=games.catalog.game_choices, max_length=20, verbose_name='game')),
                ('options', models.JSONField(blank=True, default=dict, verbose_name='options')),
                ('seed', models.CharField(default=games.models.tables.new_seed, max_length=64, verbose_name='seed')),
                ('secret', models.CharField(blank=True, max_length=64, verbose_name='secret')),
                ('contributions', models.JSONField(blank=True, default=list, verbose_name='contributions')),
                ('shared_deals', models.BooleanField(default=False, verbose_name="deals shared with a round's tables")),
                ('state', models.TextField(verbose_name='engine state')),
                ('version', models.PositiveIntegerField(default=0, verbose_name='version')),
                ('status', models.CharField(choices=[('running', 'Running'), ('finished', 'Finished'), ('aborted', 'Aborted')], default='running', max_length=10, verbose_name='status')),
                ('result', models.JSONField(blank=True, null=True, verbose_name='result')),
                ('last_seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='last seat')),
                ('last_action', models.CharField(blank=True, max_length=64, verbose_name='last action')),
                ('moved_at', models.DateTimeField(blank=True, null=True, verbose_name='last move made')),
                ('turn_started_at', models.DateTimeField(blank=True, null=True, verbose_name='turn started')),
                ('reading_since', models.DateTimeField(blank=True, null=True, verbose_name='reading the rules since')),
                ('reading_waited', models.DurationField(default=datetime.timedelta(0), verbose_name='clock waited this turn')),
                ('paused_until', models.DateTimeField(blank=True, null=True, verbose_name='deal result shown until')),
                ('ready_seats', models.JSONField(blank=True, default=list, verbose_name='ready for the next deal')),
                ('started_at', models.DateTimeField(auto_now_add=True, verbose_name='started')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
            ],
            options={
                'verbose_name': 'match',
                'verbose_name_plural': 'matches',
            },
        ),
        migrations.CreateModel(
            name='Profile',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='profile', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('language', models.CharField(blank=True, choices=[('en', 'English'), ('bg', 'Bulgarian'), ('ru', 'Russian')], default='', max_length=10, verbose_name='language')),
                ('requests_from', models.CharField(choices=[('everyone', 'Everyone'), ('nobody', 'Nobody')], default='everyone', max_length=10, verbose_name='friend requests from')),
                ('invitations_from', models.CharField(choices=[('everyone', 'Everyone'), ('friends', 'Friends only'), ('nobody', 'Nobody')], default='friends', max_length=10, verbose_name='invitations from')),
                ('online_to', models.CharField(choices=[('everyone', 'Everyone'), ('friends', 'Friends only'), ('nobody', 'Nobody')], default='friends', max_length=10, verbose_name='shown online to')),
                ('email_invitations', models.BooleanField(default=False, verbose_name='invitations by e-mail')),
                ('confirmed_email', models.EmailField(blank=True, default='', max_length=254, verbose_name='confirmed e-mail address')),
            ],
            options={
                'verbose_name': 'profile',
                'verbose_name_plural': 'profiles',
            },
        ),
        migrations.CreateModel(
            name='Server',
            fields=[
                ('name', models.CharField(max_length=100, primary_key=True, serialize=False, verbose_name='name')),
                ('seen_at', models.DateTimeField(verbose_name='seen at')),
            ],
            options={
                'verbose_name': 'server process',
                'verbose_name_plural': 'server processes',
            },
        ),
        migrations.CreateModel(
            name='ChatMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('text', models.CharField(blank=True, max_length=300, verbose_name='text')),
                ('notice', models.CharField(blank=True, default='', max_length=10, verbose_name='rules notice')),
                ('hidden', models.BooleanField(default=False, verbose_name='hidden')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'chat message',
                'verbose_name_plural': 'chat messages',
            },
        ),
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, unique=True, verbose_name='name')),
                ('name_skeleton', models.TextField(db_index=True, editable=False, verbose_name='name skeleton')),
                ('description', models.TextField(blank=True, max_length=1000, verbose_name='description')),
                ('games', models.JSONField(default=list, verbose_name='games')),
                ('access', models.CharField(choices=[('open', 'Open: anyone may join'), ('request', 'By request: an admin accepts each member'), ('invitation', 'By invitation only')], default='request', max_length=12, verbose_name='who may join')),
                ('hidden', models.BooleanField(default=False, verbose_name='hidden')),
                ('invite_code', models.CharField(default=games.models.people.new_invite_code, max_length=32, unique=True, verbose_name='invite code')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='clubs_created', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
            ],
            options={
                'verbose_name': 'club',
                'verbose_name_plural': 'clubs',
            },
        ),
        migrations.CreateModel(
            name='Announcement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('text', models.TextField(max_length=1000, verbose_name='text')),
                ('hidden', models.BooleanField(default=False, verbose_name='hidden')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='posted')),
                ('author', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL, verbose_name='author')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='games.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'announcement',
                'verbose_name_plural': 'announcements',
            },
        ),
        migrations.CreateModel(
            name='Event',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('starts_at', models.DateTimeField(blank=True, null=True, verbose_name='starts at')),
                ('rounds', models.PositiveSmallIntegerField(verbose_name='rounds')),
                ('deals_per_round', models.PositiveSmallIntegerField(verbose_name='deals per round')),
                ('turn_seconds', models.PositiveSmallIntegerField(default=0, verbose_name='turn timer (seconds)')),
                ('status', models.CharField(choices=[('registration', 'registration open'), ('running', 'in progress'), ('finished', 'finished'), ('cancelled', 'cancelled')], default='registration', max_length=12, verbose_name='status')),
                ('current_round', models.PositiveSmallIntegerField(default=0, verbose_name='round')),
                ('secret', models.CharField(default=games.engines.fair_deals.new_secret, max_length=64, verbose_name='secret')),
                ('seed', models.CharField(blank=True, max_length=64, verbose_name='seed')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                ('reviewed_version', models.PositiveSmallIntegerField(default=0, verbose_name='reviews kept in version')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='games.club', verbose_name='club')),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events_created', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
            ],
            options={
                'verbose_name': 'event',
                'verbose_name_plural': 'events',
            },
        ),
        migrations.CreateModel(
            name='EventPair',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='number')),
                ('contribution', models.CharField(blank=True, max_length=64, verbose_name='contribution to the deals')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='registered')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pairs', to='games.event', verbose_name='event')),
                ('partner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='event_partnerships', to=settings.AUTH_USER_MODEL, verbose_name='partner')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='event_pairs', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'pair',
                'verbose_name_plural': 'pairs',
                'ordering': ['event', 'number', 'created_at'],
            },
        ),
        migrations.CreateModel(
            name='DealReview',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('deal', models.PositiveSmallIntegerField(verbose_name='deal')),
                ('version', models.PositiveSmallIntegerField(verbose_name='version')),
                ('data', models.JSONField(verbose_name='review')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deal_reviews', to='games.match', verbose_name='match')),
            ],
            options={
                'verbose_name': 'deal review',
                'verbose_name_plural': 'deal reviews',
            },
        ),
        migrations.CreateModel(
            name='MatchPlayer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                ('bot_level', models.CharField(blank=True, max_length=10, verbose_name='computer player')),
                ('covered', models.BooleanField(default=False, verbose_name='covered by a computer')),
                ('away_since', models.DateTimeField(blank=True, null=True, verbose_name='away since')),
                ('timeouts', models.PositiveSmallIntegerField(default=0, verbose_name='timeouts in a row')),
                ('joined_version', models.PositiveIntegerField(blank=True, null=True, verbose_name='joined at version')),
                ('outcome', models.CharField(blank=True, choices=[('win', 'Won'), ('loss', 'Lost'), ('draw', 'Drawn')], default='', max_length=4, verbose_name='outcome')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='games.match', verbose_name='match')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='match_seats', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'match player',
                'verbose_name_plural': 'match players',
                'ordering': ['match', 'seat'],
            },
        ),
        migrations.CreateModel(
            name='Membership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'admin'), ('member', 'member')], default='member', max_length=8, verbose_name='role')),
                ('status', models.CharField(choices=[('active', 'member'), ('requested', 'asks to join'), ('invited', 'invited'), ('banned', 'banned')], default='active', max_length=10, verbose_name='status')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='since')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='games.club', verbose_name='club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'membership',
                'verbose_name_plural': 'memberships',
            },
        ),
        migrations.CreateModel(
            name='Move',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField(verbose_name='number')),
                ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                ('action', models.CharField(max_length=64, verbose_name='action')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.match', verbose_name='match')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'move',
                'verbose_name_plural': 'moves',
                'ordering': ['match', 'seq'],
            },
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=games.catalog.game_choices, max_length=20, verbose_name='game')),
                ('mu', models.FloatField(verbose_name='skill (mu)')),
                ('sigma', models.FloatField(verbose_name='uncertainty (sigma)')),
                ('rating', models.IntegerField(verbose_name='rating')),
                ('games', models.PositiveIntegerField(default=0, verbose_name='rated matches')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'rating',
                'verbose_name_plural': 'ratings',
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=games.catalog.game_choices, max_length=20, verbose_name='game')),
                ('mu_before', models.FloatField(verbose_name='skill before')),
                ('sigma_before', models.FloatField(verbose_name='uncertainty before')),
                ('mu_after', models.FloatField(verbose_name='skill after')),
                ('sigma_after', models.FloatField(verbose_name='uncertainty after')),
                ('rating_before', models.IntegerField(verbose_name='rating before')),
                ('rating_after', models.IntegerField(verbose_name='rating after')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='time')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.match', verbose_name='match')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'rating change',
                'verbose_name_plural': 'rating changes',
            },
        ),
        migrations.CreateModel(
            name='Sanction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('mute', 'Mute'), ('ban', 'Ban')], max_length=4, verbose_name='kind')),
                ('reason', models.CharField(max_length=300, verbose_name='reason')),
                ('until', models.DateTimeField(blank=True, null=True, verbose_name='until')),
                ('lifted_at', models.DateTimeField(blank=True, null=True, verbose_name='lifted')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sanctions', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'sanction',
                'verbose_name_plural': 'sanctions',
            },
        ),
        migrations.CreateModel(
            name='Table',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(choices=games.catalog.game_choices, max_length=20, verbose_name='game')),
                ('options', models.JSONField(blank=True, default=dict, verbose_name='options')),
                ('status', models.CharField(choices=[('open', 'Waiting for players'), ('playing', 'Playing'), ('finished', 'Finished'), ('aborted', 'Aborted')], default='open', max_length=10, verbose_name='status')),
                ('is_private', models.BooleanField(default=False, verbose_name='private')),
                ('turn_seconds', models.PositiveSmallIntegerField(default=0, verbose_name='turn timer (seconds)')),
                ('quick', models.BooleanField(default=False, verbose_name='quick game')),
                ('code', models.CharField(default=games.models.people.new_invite_code, max_length=32, unique=True, verbose_name='invite code')),
                ('revision', models.PositiveIntegerField(default=0, verbose_name='revision')),
                ('rematch_votes', models.JSONField(blank=True, default=list, verbose_name='rematch votes')),
                ('next_secret', models.CharField(default=games.engines.fair_deals.new_secret, max_length=64, verbose_name='secret of the next match')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated')),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tables', to='games.club', verbose_name='club')),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='owned_tables', to=settings.AUTH_USER_MODEL, verbose_name='owner')),
            ],
            options={
                'verbose_name': 'table',
                'verbose_name_plural': 'tables',
            },
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('index', models.PositiveSmallIntegerField(verbose_name='seat')),
                ('bot_level', models.CharField(blank=True, max_length=10, verbose_name='computer player')),
                ('contribution', models.CharField(blank=True, max_length=64, verbose_name='contribution to the deals')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'seat',
                'verbose_name_plural': 'seats',
                'ordering': ['table', 'index'],
            },
        ),
        migrations.CreateModel(
            name='Report',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.CharField(max_length=500, verbose_name='reason')),
                ('status', models.CharField(choices=[('open', 'Open'), ('resolved', 'Resolved')], default='open', max_length=10, verbose_name='status')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='resolved')),
                ('message', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='games.chatmessage', verbose_name='message')),
                ('reported_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports_received', to=settings.AUTH_USER_MODEL, verbose_name='reported player')),
                ('reporter', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reports_made', to=settings.AUTH_USER_MODEL, verbose_name='reporter')),
                ('resolved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='resolved by')),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'report',
                'verbose_name_plural': 'reports',
            },
        ),
        migrations.CreateModel(
            name='Presence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('channel_name', models.CharField(max_length=200, unique=True, verbose_name='channel')),
                ('connected_at', models.DateTimeField(auto_now_add=True, verbose_name='connected at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('server', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presences', to='games.server', verbose_name='server')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presences', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'presence',
                'verbose_name_plural': 'presences',
            },
        ),
        migrations.AddField(
            model_name='match',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='games.table', verbose_name='table'),
        ),
        migrations.CreateModel(
            name='Invitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat')),
                ('status', models.CharField(choices=[('pending', 'waiting for an answer'), ('accepted', 'accepted'), ('declined', 'declined')], default='pending', max_length=10, verbose_name='status')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='sent')),
                ('from_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations_sent', to=settings.AUTH_USER_MODEL, verbose_name='from')),
                ('to_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations_received', to=settings.AUTH_USER_MODEL, verbose_name='to')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'invitation',
                'verbose_name_plural': 'invitations',
            },
        ),
        migrations.CreateModel(
            name='EventTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round', models.PositiveSmallIntegerField(verbose_name='round')),
                ('number', models.PositiveSmallIntegerField(verbose_name='table')),
                ('revealed', models.BooleanField(default=False, verbose_name='round over everywhere')),
                ('points', models.JSONField(blank=True, null=True, verbose_name='matchpoints')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='games.event', verbose_name='event')),
                ('team_0', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.eventpair', verbose_name='pair in seats 1 and 3')),
                ('team_1', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.eventpair', verbose_name='pair in seats 2 and 4')),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='event_table', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'event table',
                'verbose_name_plural': 'event tables',
                'ordering': ['event', 'round', 'number'],
            },
        ),
        migrations.AddField(
            model_name='chatmessage',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to='games.table', verbose_name='table'),
        ),
        migrations.CreateModel(
            name='UsernameSkeleton',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='username_skeleton', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('skeleton', models.TextField(verbose_name='skeleton')),
            ],
            options={
                'verbose_name': 'username skeleton',
                'verbose_name_plural': 'username skeletons',
                'indexes': [models.Index(fields=['skeleton'], name='username_skeleton')],
            },
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(fields=('secret',), name='event_unique_secret'),
        ),
        migrations.AddConstraint(
            model_name='eventpair',
            constraint=models.UniqueConstraint(fields=('event', 'number'), name='event_pair_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='dealreview',
            constraint=models.UniqueConstraint(fields=('match', 'deal'), name='deal_review_unique_deal'),
        ),
        migrations.AddIndex(
            model_name='matchplayer',
            index=models.Index(fields=['user', 'match'], name='matchplayer_user_match'),
        ),
        migrations.AddConstraint(
            model_name='matchplayer',
            constraint=models.UniqueConstraint(fields=('match', 'seat'), name='matchplayer_unique_seat'),
        ),
        migrations.AddConstraint(
            model_name='membership',
            constraint=models.UniqueConstraint(fields=('club', 'user'), name='one_membership_per_club'),
        ),
        migrations.AddConstraint(
            model_name='move',
            constraint=models.UniqueConstraint(fields=('match', 'seq'), name='move_unique_seq'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(fields=['game', '-rating'], name='rating_leaderboard'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('user', 'game'), name='rating_unique_user_game'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['user', 'game', 'created_at'], name='ratingchange_user_game'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(fields=('user', 'match'), name='ratingchange_unique_match'),
        ),
        migrations.AddIndex(
            model_name='sanction',
            index=models.Index(fields=['user', 'kind', '-created_at'], name='games_sanct_user_id_620e09_idx'),
        ),
        migrations.AddIndex(
            model_name='table',
            index=models.Index(fields=['is_private', 'status', '-updated_at'], name='games_table_is_priv_df98bf_idx'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(fields=('next_secret',), name='table_unique_next_secret'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('table', 'index'), name='seat_unique_index'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('table', 'user'), name='seat_one_per_user'),
        ),
        migrations.AddIndex(
            model_name='report',
            index=models.Index(fields=['status', '-created_at'], name='games_repor_status_599af2_idx'),
        ),
        migrations.AddIndex(
            model_name='presence',
            index=models.Index(fields=['table', 'user'], name='games_prese_table_i_2ebf29_idx'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['status', '-started_at'], name='games_match_status_fc7aa7_idx'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='match_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.UniqueConstraint(condition=models.Q(('secret', ''), _negated=True), fields=('secret',), name='match_unique_secret'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.UniqueConstraint(condition=models.Q(('shared_deals', False)), fields=('seed',), name='match_unique_seed'),
        ),
        migrations.AddConstraint(
            model_name='invitation',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'pending')), fields=('table', 'to_user'), name='one_pending_invitation_per_table_and_friend'),
        ),
        migrations.AddConstraint(
            model_name='eventtable',
            constraint=models.UniqueConstraint(fields=('event', 'round', 'number'), name='event_table_unique_place'),
        ),
        migrations.AddIndex(
            model_name='chatmessage',
            index=models.Index(fields=['table', 'created_at'], name='games_chatm_table_i_ea5dcd_idx'),
        ),
    ]
