// How the GUI words a core error: the core's hint names what to do, the GUI adds where its user
// changes the setting; message and hint are joined the same way everywhere.
#include <QTest>

#include "common/error.h"
#include "models/errortext.h"

using namespace MqttDoctor;

class TestErrorText : public QObject
{
    Q_OBJECT

private slots:
    void plainHintPassesThrough()
    {
        const Error e(Error::Kind::Timeout, QStringLiteral("no reply from the server"), QStringLiteral("check the server is up"));
        QCOMPARE(ErrorText::hint(e), QStringLiteral("check the server is up"));
        QCOMPARE(ErrorText::withHint(e), QStringLiteral("no reply from the server\ncheck the server is up"));
        QCOMPARE(ErrorText::withHint(e, QStringLiteral(" — ")), QStringLiteral("no reply from the server — check the server is up"));
    }

    void noHintNoSeparator()
    {
        const Error e(Error::Kind::Io, QStringLiteral("disk full"));
        QVERIFY(ErrorText::hint(e).isEmpty());
        QCOMPARE(ErrorText::withHint(e), QStringLiteral("disk full"));
        QVERIFY(ErrorText::hintSuffix(e).isEmpty());
    }

    void settingsAreWordedForTheGui()
    {
        const Error readOnly = Error(Error::Kind::ReadOnly, QStringLiteral("repair refused"), QStringLiteral("allow changes to write"))
                                   .withSetting(Error::Setting::AllowChanges);
        const QString hint = ErrorText::hint(readOnly);
        QVERIFY2(hint.startsWith(QStringLiteral("allow changes to write")) && hint.contains(QStringLiteral("\"Allow changes\"")),
                 qPrintable(hint));
        QVERIFY2(!hint.contains(QStringLiteral("--")), qPrintable(hint)); // no CLI flag in the GUI

        const Error creds = Error(Error::Kind::InvalidInput, QStringLiteral("needs the account's credentials"))
                                .withSetting(Error::Setting::AccountCredentials);
        QVERIFY2(ErrorText::hint(creds).contains(QStringLiteral("Connect…")), qPrintable(ErrorText::hint(creds)));
        QVERIFY2(!ErrorText::hint(creds).contains(QStringLiteral("--")), qPrintable(ErrorText::hint(creds)));
    }
};

QTEST_GUILESS_MAIN(TestErrorText)
#include "tst_errortext.moc"
